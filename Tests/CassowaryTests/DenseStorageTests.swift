@testable import Cassowary
import Testing

/// The column index and the constraint table against the standard
/// collections they replace, on random operation sequences.
@Suite("Dense storage")
struct DenseStorageTests {
    /// A small deterministic generator (SplitMix64), so failures replay.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test("an entering-candidate slot is 4 bytes and keeps its position and both flags apart")
    func candidateSlotPacking() {
        #expect(MemoryLayout<EnteringCandidates.Slot>.stride <= 4)
        var slot = EnteringCandidates.Slot()
        #expect(slot.position == -1 && !slot.isDirty && !slot.weak)
        for position: Int32 in [0, 1, 12_345, (1 << 30) - 2, -1] {
            for (dirty, weak) in [(false, false), (true, false), (false, true), (true, true)] {
                slot.position = position
                slot.isDirty = dirty
                slot.weak = weak
                #expect(slot.position == position && slot.isDirty == dirty && slot.weak == weak)
                slot.isDirty.toggle()
                slot.weak.toggle()
                #expect(slot.position == position && slot.isDirty != dirty && slot.weak != weak)
            }
        }
    }

    @Test("a column is 16 bytes (a million of them at R = 10^5)")
    func columnSetSize() {
        #expect(MemoryLayout<ColumnSet>.stride <= 16)
    }

    @Test("ColumnSet behaves as Set<Int32> through inline, listed, spilled and emptied states", arguments: [1, 2, 3, 4, 5])
    func columnSetMatchesSet(seed: UInt64) {
        var g = Generator(state: seed)
        var column = ColumnSet()
        var model = Set<Int32>()
        var tiers = (listed: false, spilled: false, backToList: false)
        var wasSpilled = false
        for step in 0..<6_000 {
            // Small ids so that inserts hit present elements and removals hit
            // absent ones. Phases of 5, 24 and 100 ids with clears keep a
            // column inline or listed (up to 32 rows); a phase that mostly
            // inserts into 100 ids and never clears spills it past the list's
            // bound, and the phase after it drains it back into a list.
            let phase = (step / 500) % 5
            let range = [5, 24, 100, 100, 100][phase]
            let element = Int32(g.next(range))
            let inserts = phase == 3 ? 8 : phase == 4 ? 0 : 5
            switch g.next(10) {
            case 0..<inserts:
                column.insert(element)
                model.insert(element)
            case inserts..<9:
                column.remove(element)
                model.remove(element)
            default:
                guard phase < 3 else { continue }
                column = []
                model = []
            }
            #expect(column.count == model.count)
            #expect(column.isEmpty == model.isEmpty)
            #expect(Set(column) == model)
            #expect(Array(column).count == model.count, "iteration yields each element once")
            #expect(column.contains(element) == model.contains(element))
            if column.count > 3 && !column.isSpilled { tiers.listed = true }
            if column.isSpilled { tiers.spilled = true; wasSpilled = true }
            if column.isEmpty { wasSpilled = false }
            if wasSpilled && !column.isSpilled && column.count > 3 { tiers.backToList = true }
        }
        #expect(tiers.listed && tiers.spilled && tiers.backToList, "every tier and the way back were reached")
    }

    @Test("a column's order is its operations': removal moves the last row into the hole, as inline")
    func columnListOrder() {
        var column: ColumnSet = [10, 11, 12, 13, 14, 15]
        #expect(Array(column) == [10, 11, 12, 13, 14, 15])
        column.remove(11)
        #expect(Array(column) == [10, 15, 12, 13, 14])
        column.remove(14)
        column.insert(7)
        #expect(Array(column) == [10, 15, 12, 13, 7])
        column.insert(12)
        #expect(column.count == 5, "a listed row already present is not added twice")
        // Past the list's bound the rows move to a hash set and come back as a list.
        for id in Int32(100)..<Int32(100 + ColumnSet.listLimit) { column.insert(id) }
        #expect(column.isSpilled && column.count == 5 + ColumnSet.listLimit)
        for id in Int32(100)..<Int32(100 + ColumnSet.listLimit) { column.remove(id) }
        #expect(!column.isSpilled && Set(column) == [10, 15, 12, 13, 7])
    }

    @Test("an undone list removal puts the row back where it was; a change of tier is undone by value")
    func columnListUndo() throws {
        let column: ColumnSet = [10, 11, 12, 13, 14]
        for victim in Array(column) {
            var changed = column
            let position = try #require(changed.listPosition(of: victim))
            #expect(!changed.undoNeedsValue(removing: victim))
            changed.remove(victim)
            changed.restore(victim, at: position)
            #expect(Array(changed) == Array(column), "removing \(victim) and undoing it")
        }
        var full = ColumnSet()
        for id in Int32(0)..<Int32(ColumnSet.listLimit) { full.insert(id) }
        #expect(!full.isSpilled && full.undoNeedsValue(inserting: 100), "a full list becomes a hash set")
        #expect(!full.undoNeedsValue(inserting: 0), "a row already listed changes nothing")
        full.insert(100)
        for id in Int32(0)..<Int32(ColumnSet.listLimit - ColumnSet.listReturn) { full.remove(id) }
        #expect(full.isSpilled && full.count == ColumnSet.listReturn + 1)
        #expect(full.undoNeedsValue(removing: 100) && !full.undoNeedsValue(removing: 1), "the next removal of a row makes it a list")
        let inline: ColumnSet = [1, 2]
        #expect(inline.undoNeedsValue(inserting: 3) && inline.undoNeedsValue(removing: 1), "inline: by value")
    }

    @Test("a spilled column: a set of ids through growth and shrinking, walked in an order its operations fix", arguments: [11, 12, 13])
    func spilledColumnIsASetWithAReplayableOrder(seed: UInt64) {
        var g = Generator(state: seed)
        var a = SpilledColumn(), b = SpilledColumn()
        var model = Set<Int32>()
        for step in 0..<20_000 {
            // Grow to thousands, then drain: rehashing both ways, tombstones in between.
            let element = Int32(g.next(step < 12_000 ? 5_000 : 200))
            let insert = step < 12_000 ? g.next(4) != 0 : g.next(4) == 0
            if insert {
                a.insert(element); b.insert(element); model.insert(element)
            } else {
                a.remove(element); b.remove(element); model.remove(element)
            }
            if step % 97 == 0 {
                #expect(a.count == model.count)
                #expect(Set(a) == model)
                #expect(Array(a).count == model.count, "iteration yields each element once")
                #expect(a.contains(element) == model.contains(element))
                #expect(Array(a) == Array(b), "the same operations, the same order")
            }
        }
        a.insert(-3)  // ids are never negative: ignored, never stored
        #expect(!a.contains(-3) && a.count == model.count)
    }

    /// A table value for the test: a string, the empty one vacant.
    struct Label: DenseTableValue, Equatable, ExpressibleByStringInterpolation {
        var text: String
        init(stringLiteral text: String) { self.text = text }
        static var vacant: Label { "" }
        var isVacant: Bool { text.isEmpty }
    }

    @Test("DenseTable behaves as [Int: V] and lists its entries by id")
    func denseTableMatchesDictionary() {
        var g = Generator(state: 7)
        var table = DenseTable<Label>()
        var model: [Int: Label] = [:]
        for step in 0..<3_000 {
            let id = g.next(200) - 5  // some negative ids: never stored, never trap
            if g.next(3) == 0 {
                table[id] = nil
                model[id] = nil
            } else {
                table[id] = "v\(step)"
                if id >= 0 { model[id] = "v\(step)" }
            }
            #expect(table.count == model.count)
            #expect(table[id] == model[id])
        }
        #expect(table.entries.map(\.id) == model.keys.sorted())
        #expect(table.entries.map(\.value) == model.keys.sorted().map { model[$0]! })
        #expect(table[1_000_000] == nil)
    }

    /// An objective row as the dense-only version kept it: coefficients by
    /// id, the symbols in the order that version left them (a dropped cell's
    /// place taken by the last symbol). The small mode must keep this order:
    /// the simplex reads ``ObjectiveRow/symbols`` in it.
    struct ObjectiveModel {
        var coefficients: [Int32: Double] = [:]
        var order: [Int32] = []

        mutating func add(_ id: Int32, _ c: Double) -> Int {
            if let old = coefficients[id] {
                let sum = old + c
                if Row.isZero(sum) { drop(id); return -1 }
                coefficients[id] = sum
                return 0
            }
            guard !Row.isZero(c) else { return 0 }
            coefficients[id] = c
            order.append(id)
            return 1
        }

        mutating func drop(_ id: Int32) {
            guard coefficients.removeValue(forKey: id) != nil, let p = order.firstIndex(of: id) else { return }
            let last = order.removeLast()
            if p < order.count { order[p] = last }
        }
    }

    @Test("ObjectiveRow keeps the dense version's cells and symbol order through its small mode and the switch to dense", arguments: [1, 2, 3, 4, 5, 6])
    func objectiveRowMatchesDenseOrder(seed: UInt64) {
        var g = Generator(state: seed)
        var row = ObjectiveRow()
        var model = ObjectiveModel()
        let steps = [1.0, -1.0, 2.0, -2.0, 0.5]
        for step in 0..<3_000 {
            // Few ids at first (the row stays small), then more than the small limit holds.
            let id = Int32(g.next(step < 1_500 ? 12 : 48))
            let symbol = Symbol(id: id, kind: .error)
            switch g.next(20) {
            case 0..<12:
                let c = steps[g.next(steps.count)]
                #expect(row.add(symbol, c) == model.add(id, c))
            case 12..<15:
                _ = row.remove(symbol)
                model.drop(id)
            case 15..<18:
                let value = g.next(4) == 0 ? 0 : steps[g.next(steps.count)]
                row.setCoefficient(of: symbol, to: value)
                if value == 0 {
                    model.drop(id)
                } else if model.coefficients[id] != nil {
                    model.coefficients[id] = value
                } else {
                    _ = model.add(id, value)
                }
            case 18:
                row.negate()
                for (k, v) in model.coefficients { model.coefficients[k] = -v }
            default:
                if g.next(8) == 0 {
                    row.removeAll()
                    model = ObjectiveModel()
                }
            }
            #expect(row.symbols.map(\.id) == model.order, "seed \(seed) step \(step)")
            for probe in Int32(0)..<48 {
                #expect(row.coefficient(of: Symbol(id: probe, kind: .error)) == (model.coefficients[probe] ?? 0))
            }
        }
    }

    @Test("TermArena returns every run it holds, across chunk boundaries, long runs and compaction", arguments: [21, 22, 23])
    func termArenaMatchesRuns(seed: UInt64) {
        var g = Generator(state: seed)
        var arena = TermArena()
        var model: [Int: [(variable: CassowaryVariable, coefficient: Double)]] = [:]
        var starts: [Int: Int] = [:]
        func check() {
            for (id, run) in model {
                let read = arena.terms(from: starts[id] ?? -1, count: run.count)
                #expect(read.map(\.variable) == run.map(\.variable) && read.map(\.coefficient.bitPattern) == run.map(\.coefficient.bitPattern), "run \(id)")
            }
        }
        for id in 0..<3_000 {
            // Mostly short runs (they fill chunks and leave rests), now and
            // then an empty one or one longer than a chunk.
            let length = id % 997 == 5 ? TermArena.chunkSize + g.next(100) : id % 31 == 0 ? 0 : 1 + g.next(40)
            // Coefficients ±1 (one word), others (three), and now and then
            // an id too wide for the one-word form (four).
            let run = (0..<length).map { k in
                let variable = g.next(50) == 0 ? (1 << 30) + g.next(1_000_000) : g.next(1_000_000)
                let coefficient: Double = switch g.next(4) {
                case 0: 1
                case 1: -1
                case 2: Double(id) + Double(k) / 64
                default: -0.0
                }
                return (variable: CassowaryVariable(id: variable), coefficient: coefficient)
            }
            starts[id] = arena.append(run)
            model[id] = run
            if g.next(3) == 0, let victim = model.keys.min(by: { ($0 * 7919) % 3001 < ($1 * 7919) % 3001 }) {
                arena.release(from: starts[victim] ?? 0, count: model[victim]?.count ?? 0)
                model[victim] = nil
            }
        }
        check()
        // A compaction (as ``CassowarySolver/compactTerms()`` does): the kept runs, nothing unused.
        var fresh = TermArena()
        for id in model.keys.sorted() { starts[id] = fresh.append(copying: arena, from: starts[id] ?? 0, count: model[id]?.count ?? 0) }
        arena = fresh
        check()
        // Words held: one a term with coefficient ±1, three with another,
        // four with an id of 2^30 or more.
        let held = model.values.joined().reduce(0) { sum, term in
            sum + (term.variable.id >= 1 << 30 ? 4 : term.coefficient == 1 || term.coefficient == -1 ? 1 : 3)
        }
        #expect(arena.count - arena.unused == held)
    }
}
