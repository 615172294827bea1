// The solver's record of each constraint it holds: what removing, rebuilding
// and explaining need, stored flat.
//
// Why flat: a record held a whole ``ConstraintDefinition`` (its own terms
// array, a label, an optional strength) and four optional symbols, 104 bytes
// plus a heap block per constraint: at 130,000 constraints (self-sizing rows,
// R = 10^4) 13.5 MB of records and 7.7 MB of term arrays, the largest item
// of the solver after the rows (massif; docs/measurements.md#m-2026-11-26-records has the before and after).
// Here the terms of every record sit end to end in one arena, the symbols
// are ids (their kinds follow from the relation), and a label is kept only
// when there is one.

extension CassowarySolver.ConstraintRecord: DenseTableValue {
    static let vacant = Self(vacancy: ())
    var isVacant: Bool { termStart < 0 }
}

extension CassowarySolver {
    /// One constraint in the solver. 48 bytes, no heap block of its own.
    /// Why packed (the sequence in 32 bits, the term count, relation and
    /// redundancy flag in one word): at 56 bytes the record table was 45 MB
    /// of a grid's 416 MB at R = 10^5; every record is 8 bytes less.
    struct ConstraintRecord {
        var constant: Double
        /// The soft strength, 0 for required (soft strengths are > 0: ``validate(_:)``).
        var strengthValue: Double
        /// The first of the definition's terms in ``TermArena``.
        var termStart: Int
        /// Insertion sequence, for rebuilding in the original order
        /// (renumbered before it would pass `Int32.max`: ``nextSequenceNumber()``).
        var sequence: Int32
        /// Bits 0-28 the term count (``maximumTerms``), 29-30 the relation, 31 redundancy.
        private var packed: UInt32
        private var markerID: Int32 = -1
        private var otherID: Int32 = -1
        private var freshSubjectID: Int32 = -1
        private var editID: Int32 = -1

        /// The most terms a definition may have (``validate(_:)`` refuses more).
        static let maximumTerms = (1 << 29) - 1

        init(_ definition: ConstraintDefinition, termStart: Int, sequence: Int32) {
            constant = definition.constant
            if case .soft(let s) = definition.strength { strengthValue = s } else { strengthValue = 0 }
            self.sequence = sequence
            self.termStart = termStart
            let relationBits: UInt32
            switch definition.relation {
            case .equal: relationBits = 0
            case .lessThanOrEqual: relationBits = 1
            case .greaterThanOrEqual: relationBits = 2
            }
            packed = UInt32(truncatingIfNeeded: min(definition.terms.count, Self.maximumTerms)) | relationBits << 29
        }

        var termCount: Int { Int(packed & UInt32(Self.maximumTerms)) }

        /// A table's empty slot: a negative term start, which no record has.
        fileprivate init(vacancy: ()) {
            constant = 0
            strengthValue = 0
            termStart = -1
            sequence = 0
            packed = 0
        }

        var relation: CassowaryRelation {
            switch packed >> 29 & 3 {
            case 0: return .equal
            case 1: return .lessThanOrEqual
            default: return .greaterThanOrEqual
            }
        }

        /// A required equality that was implied by the others when added (no row).
        var redundant: Bool {
            get { packed >> 31 == 1 }
            set { packed = newValue ? packed | 1 << 31 : packed & ~(1 << 31) }
        }

        var strength: Strength { strengthValue > 0 ? .soft(strengthValue) : .required }

        /// Slack (inequality) or positive error (soft equality); nil for a
        /// required equality.
        var marker: Symbol? {
            get { markerID < 0 ? nil : Symbol(id: markerID, kind: relation == .equal ? .error : .slack) }
            set { markerID = newValue?.id ?? -1 }
        }
        /// The second error symbol of a soft constraint.
        var other: Symbol? {
            get { otherID < 0 ? nil : Symbol(id: otherID, kind: .error) }
            set { otherID = newValue?.id ?? -1 }
        }
        /// For a required equality: the external symbol it was solved for, if
        /// that symbol occurred in no other row at the time (a fresh subject).
        var freshSubject: Symbol? {
            get { freshSubjectID < 0 ? nil : Symbol(id: freshSubjectID, kind: .external) }
            set { freshSubjectID = newValue?.id ?? -1 }
        }
        /// The edit variable this constraint implements, if any. (Variable ids
        /// index symbols, which are `Int32`.)
        var edit: CassowaryVariable? {
            get { editID < 0 ? nil : CassowaryVariable(id: Int(editID)) }
            set { editID = newValue.map { Int32(truncatingIfNeeded: $0.id) } ?? -1 }
        }
    }

    /// The next insertion sequence number. Why renumbered rather than wider:
    /// the record is 8 bytes smaller with a 32-bit sequence; after two
    /// billion insertions the live records are renumbered 0, 1, ... in
    /// their order (O(records log records), once per two billion).
    mutating func nextSequenceNumber() -> Int32 {
        if nextSequence >= Int(Int32.max) {
            let ordered = records.entries.sorted { $0.value.sequence < $1.value.sequence }
            for (k, entry) in ordered.enumerated() { records[entry.id]?.sequence = Int32(k) }
            nextSequence = ordered.count
        }
        defer { nextSequence += 1 }
        return Int32(nextSequence)
    }

    /// Records a constraint just inserted: its terms into the arena, its
    /// label (if any) beside it.
    /// - Complexity: O(terms) amortised.
    mutating func store(_ record: ConstraintRecord, _ definition: ConstraintDefinition, as id: Int) {
        var record = record
        record.termStart = terms.append(definition.terms)
        records[id] = record
        if !definition.label.isEmpty { labels[id] = definition.label }
    }

    /// Forgets a constraint's record; the arena is compacted once more than
    /// half of it is left over from removed ones.
    /// - Complexity: O(1) amortised (a compaction is O(terms held) and
    ///   follows at least as many removed terms).
    mutating func forget(_ id: Int) {
        guard let record = records[id] else { return }
        records[id] = nil
        labels[id] = nil
        terms.release(from: record.termStart, count: record.termCount)
        if terms.unused > 1024 && terms.unused > terms.count / 2 { compactTerms() }
    }

    /// The definition a record was made from (its terms copied out of the arena).
    /// - Complexity: O(terms).
    func definition(of record: ConstraintRecord, id: Int) -> ConstraintDefinition {
        ConstraintDefinition(terms: terms.terms(from: record.termStart, count: record.termCount),
                             constant: record.constant, relation: record.relation, strength: record.strength,
                             label: labels[id] ?? "")
    }

    /// Moves every record's terms to the front of a new arena, in id order.
    /// - Complexity: O(records + terms held).
    mutating func compactTerms() {
        var fresh = TermArena()
        fresh.reserveCapacity(terms.count - terms.unused)
        let old = terms
        records.updateEach { record in
            record.termStart = fresh.append(copying: old, from: record.termStart, count: record.termCount)
        }
        terms = fresh
    }
}

/// The terms of every recorded constraint, end to end, as 32-bit words in
/// fixed-size chunks.
///
/// A term is one word when its coefficient is +1 or -1 and its variable id
/// is below 2^30 (the id in bits 0-29, the sign in the tag bits 30-31), and
/// three words otherwise (the tag word, then the coefficient's 64 bits), or
/// four when the id is wider (the tag word, the id, the coefficient). Why:
/// a layout's rows are sums and differences of frame variables (`a.left =
/// b.right + 8` is `a.x - b.x - b.width = 8`), so nearly every coefficient
/// is ±1, and a term in 4 bytes instead of 12 takes about 20 bytes off
/// each constraint of a grid (docs/measurements.md#m-2026-11-27-term-words).
/// A run is read from its start: its length in words follows from its
/// terms' tags.
///
/// Why chunks rather than one growing array: an array grows by doubling,
/// so after a load the arena held up to twice the terms it needed, and the
/// last doubling copied all of them while both buffers were live (grid
/// R = 10^5: 2.6 million terms in buffers of 4.2 million, 50 MB for 31, at
/// the solve's peak; massif). A chunk is allocated once, full size, and
/// never copied; a run never straddles two chunks (a run that does not fit
/// in the current chunk's rest starts a new one), so a record's terms are
/// read from one chunk. A run longer than a chunk gets a chunk of its own,
/// of its size.
struct TermArena {
    private struct Chunk {
        var words: [UInt32] = []
        /// The words it was made for (its array never grows past it).
        let size: Int
    }
    /// Words per chunk: 65,536 × 4 bytes = 256 KB, small beside the arena
    /// of a large layout and large beside a small one's overhead.
    static let chunkSize = 65_536
    private static let idBits: UInt32 = (1 << 30) - 1
    private static let plusOne: UInt32 = 0
    private static let minusOne: UInt32 = 1 << 30
    private static let explicitCoefficient: UInt32 = 2 << 30
    private static let wide: UInt32 = 3 << 30

    private var chunks: [Chunk] = []
    /// Where each chunk starts in the arena's positions (a position is
    /// `chunk start + word index in chunk`; the gaps a skipped rest leaves
    /// are counted as unused).
    private var chunkStarts: [Int] = []
    /// Words handed out, gaps included (the next run starts at or after it).
    private(set) var count = 0
    /// Words of records that were forgotten, and the chunk rests skipped
    /// (room a compaction gives back).
    private(set) var unused = 0

    /// Room for `count` words without the chunk list growing. (Chunks are
    /// allocated full size, so there is nothing else to reserve.)
    mutating func reserveCapacity(_ count: Int) {
        chunks.reserveCapacity(count / Self.chunkSize + 1)
        chunkStarts.reserveCapacity(count / Self.chunkSize + 1)
    }

    /// The words a term takes.
    static func wordCount(variable: Int, coefficient: Double) -> Int {
        if variable < 0 || variable > Int(idBits) { return 4 }
        return coefficient == 1 || coefficient == -1 ? 1 : 3
    }

    /// A chunk with room for `needed` more words: the last one, or a new one.
    private mutating func chunkWithRoom(for needed: Int) -> Int {
        if let last = chunks.indices.last, chunks[last].words.count + needed <= chunks[last].size {
            return last
        }
        if let last = chunks.indices.last {
            // The rest of the last chunk stays empty: count it as unused.
            let rest = chunkStarts[last] + chunks[last].size - count
            unused += rest
            count += rest
        }
        let size = Swift.max(Self.chunkSize, needed)
        var chunk = Chunk(size: size)
        chunk.words.reserveCapacity(size)
        chunks.append(chunk)
        chunkStarts.append(count)
        return chunks.count - 1
    }

    /// Appends terms; returns where they start.
    /// - Complexity: O(terms), amortised (a new chunk now and then).
    mutating func append(_ terms: [(variable: CassowaryVariable, coefficient: Double)]) -> Int {
        guard !terms.isEmpty else { return count }
        var length = 0
        for term in terms { length += Self.wordCount(variable: term.variable.id, coefficient: term.coefficient) }
        let c = chunkWithRoom(for: length)
        let start = count
        for term in terms {
            let id = term.variable.id
            let bits = term.coefficient.bitPattern
            if id < 0 || id > Int(Self.idBits) {
                chunks[c].words.append(Self.wide)
                chunks[c].words.append(UInt32(truncatingIfNeeded: id))
            } else if term.coefficient == 1 || term.coefficient == -1 {
                chunks[c].words.append(UInt32(id) | (term.coefficient == 1 ? Self.plusOne : Self.minusOne))
                continue
            } else {
                chunks[c].words.append(UInt32(id) | Self.explicitCoefficient)
            }
            chunks[c].words.append(UInt32(truncatingIfNeeded: bits))
            chunks[c].words.append(UInt32(truncatingIfNeeded: bits >> 32))
        }
        count += length
        return start
    }

    /// The words of the run of `terms` terms that starts at `index` of chunk `c`.
    private func runLength(chunk c: Int, index: Int, terms: Int) -> Int {
        var k = index
        for _ in 0..<terms {
            switch chunks[c].words[k] & ~Self.idBits {
            case Self.plusOne, Self.minusOne: k += 1
            case Self.explicitCoefficient: k += 3
            default: k += 4
            }
        }
        return k - index
    }

    /// Appends another arena's run of `terms` terms; returns where it starts here.
    mutating func append(copying other: TermArena, from start: Int, count terms: Int) -> Int {
        guard terms > 0 else { return count }
        let (o, i) = other.locate(start)
        let length = other.runLength(chunk: o, index: i, terms: terms)
        let c = chunkWithRoom(for: length)
        let here = count
        chunks[c].words.append(contentsOf: other.chunks[o].words[i..<i + length])
        count += length
        return here
    }

    /// Marks the run of `terms` terms at `start` as unused.
    mutating func release(from start: Int, count terms: Int) {
        guard terms > 0 else { return }
        let (c, i) = locate(start)
        unused += runLength(chunk: c, index: i, terms: terms)
    }

    /// The chunk and index of a run's start (a run lies in one chunk).
    /// - Complexity: O(log chunks).
    private func locate(_ position: Int) -> (chunk: Int, index: Int) {
        // The last chunk that starts at or before `position`.
        var low = 0, high = chunkStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if chunkStarts[mid] <= position { low = mid } else { high = mid - 1 }
        }
        return (low, position - chunkStarts[low])
    }

    /// The run of `terms` terms that starts at `start`.
    /// - Complexity: O(terms + log chunks).
    func terms(from start: Int, count terms: Int) -> [(variable: CassowaryVariable, coefficient: Double)] {
        guard terms > 0 else { return [] }
        let (c, i) = locate(start)
        var result: [(variable: CassowaryVariable, coefficient: Double)] = []
        result.reserveCapacity(terms)
        var k = i
        for _ in 0..<terms {
            let word = chunks[c].words[k]
            func coefficient(at j: Int) -> Double {
                Double(bitPattern: UInt64(chunks[c].words[j]) | UInt64(chunks[c].words[j + 1]) << 32)
            }
            switch word & ~Self.idBits {
            case Self.plusOne:
                result.append((CassowaryVariable(id: Int(word & Self.idBits)), 1))
                k += 1
            case Self.minusOne:
                result.append((CassowaryVariable(id: Int(word & Self.idBits)), -1))
                k += 1
            case Self.explicitCoefficient:
                result.append((CassowaryVariable(id: Int(word & Self.idBits)), coefficient(at: k + 1)))
                k += 3
            default:
                result.append((CassowaryVariable(id: Int(Int32(bitPattern: chunks[c].words[k + 1]))), coefficient(at: k + 2)))
                k += 4
            }
        }
        return result
    }
}
