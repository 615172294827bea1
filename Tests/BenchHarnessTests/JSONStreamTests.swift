import Foundation
import LayoutModel
import LayoutSolving
import SeededRandom
import Testing

/// `solve --format json` streams its answer (``JSONStreamWriter``); it must
/// be byte for byte the tree's serialisation, which later tools read.
@Suite("Streamed JSON")
struct JSONStreamTests {
    static func solution(_ frames: [Frame], ambiguous: [String]?, levels: [LevelError] = [], status: Solution.Status = .solved)
        -> Solution
    {
        Solution(variant: "ipad \"wide\"", status: status, viewNames: frames.indices.map { "v\($0)\\é" }, frames: frames,
                 levels: levels, ambiguous: ambiguous, conflict: [])
    }

    @Test("a streamed solution is the tree's text, for every kind of member and number")
    func sameBytes() throws {
        var random = SplitMix(seed: 7)
        func number() -> Double {
            switch random.next() % 6 {
            case 0: return Double(Int64(random.next() % 2_000_001) - 1_000_000)  // integral, either sign
            case 1: return Double(random.next() % 1_000_000) / 3
            case 2: return -0.0
            case 3: return 1e15 + Double(random.next() % 7)  // integral but past the digit path
            case 4: return 1.5e-7
            default: return 123456789012345
            }
        }
        let frames = (0..<200).map { _ in Frame(x: number(), y: number(), width: number(), height: number()) }
        let cases: [Solution] = [
            Self.solution(frames, ambiguous: ["v1\\é"], levels: [LevelError(priority: Priority(rawValue: 750), error: 2.5)]),
            Self.solution(frames, ambiguous: []),
            Self.solution(frames, ambiguous: nil, status: .unsatisfiable),
            Self.solution([], ambiguous: nil),
        ]
        for solution in cases {
            for indent in [nil, 2] as [Int?] {
                var writer = JSONStreamWriter(indent: indent)
                solution.writeJSON(checks: [], to: &writer)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == solution.json(checks: []).serialized(indent: indent))
            }
        }
        // A document around them: nested arrays and objects, empty ones too.
        var writer = JSONStreamWriter(indent: 2)
        writer.beginObject()
        writer.key("results")
        writer.beginArray()
        for solution in cases {
            writer.element()
            solution.writeJSON(checks: [], to: &writer)
        }
        writer.endArray()
        writer.key("none")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        let tree = JSONValue.object([("results", .array(cases.map { $0.json(checks: []) })), ("none", .array([]))])
        #expect(String(decoding: writer.bytes, as: UTF8.self) == tree.serialized(indent: 2))

        // Flushed in small pieces, the sink sees the same bytes, in order, none held back after finish().
        final class Collected: @unchecked Sendable { var bytes: [UInt8] = []; var chunks = 0 }
        let collected = Collected()
        var flushing = JSONStreamWriter(indent: 2, flushingEvery: 100) { collected.bytes += $0; collected.chunks += 1 }
        flushing.beginArray()
        for solution in cases {
            flushing.element()
            solution.writeJSON(checks: [], to: &flushing)
        }
        flushing.endArray()
        flushing.finish()
        #expect(collected.chunks > 10)
        #expect(flushing.bytes.isEmpty)
        #expect(String(decoding: collected.bytes, as: UTF8.self) == JSONValue.array(cases.map { $0.json(checks: []) }).serialized(indent: 2))
        // A document shorter than the threshold reaches the sink whole, from finish() alone.
        let short = Collected()
        var small = JSONStreamWriter(indent: 2, flushingEvery: 100) { short.bytes += $0; short.chunks += 1 }
        small.beginObject()
        small.key("a")
        small.value(.number(1))
        small.endObject()
        small.finish()
        #expect(short.chunks == 1)
        #expect(String(decoding: short.bytes, as: UTF8.self) == JSONValue.object([("a", .number(1))]).serialized(indent: 2))
    }

    @Test("strings are escaped by JSON's rules, whether or not they need it (plain names are copied whole)")
    func escaping() {
        #expect(JSONValue.string("row1_left").serialized() == #""row1_left""#)
        #expect(JSONValue.string("héllo wörld").serialized() == "\"héllo wörld\"")
        #expect(JSONValue.string("a\"b").serialized() == #""a\"b""#)
        #expect(JSONValue.string("a\\b").serialized() == #""a\\b""#)
        #expect(JSONValue.string("a\nb\tc\r").serialized() == #""a\nb\tc\r""#)
        #expect(JSONValue.string("\u{01}").serialized() == #""\u0001""#)
        #expect(JSONValue.string("").serialized() == "\"\"")
        var writer = JSONStreamWriter()
        writer.beginObject()
        writer.key("say \"hi\"")
        writer.value(.number(1))
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"say \"hi\"":1}"#)
    }

    @Test("numbers are formatNumber's text, written without a String for integral values")
    func numbers() {
        var random = SplitMix(seed: 11)
        for _ in 0..<5_000 {
            let bits = random.next()
            let x = [Double(Int64(bitPattern: bits) >> 14), Double(bitPattern: bits), Double(bits % 1000) / 8][Int(bits % 3)]
            let expected = x.isFinite ? formatNumber(x) : "null"
            #expect(JSONValue.number(x).serialized() == expected, "\(x)")
        }
        // Non-integral numbers are written without a String: the same text
        // as `formatNumber` (`description` for them) over many bit patterns,
        // and thirds and tenths around the edges of the exponent notation.
        var mismatches: [String] = []
        for _ in 0..<200_000 {
            let x = Double(bitPattern: random.next())
            guard x.isFinite, JSONValue.number(x).serialized() != formatNumber(x) else { continue }
            if mismatches.count < 5 { mismatches.append(x.description) }
        }
        for k in -330...330 {
            for x in [1.0 / 3, 2.0 / 3, 1, 5, 0.1, 123.456] {
                let y = x * pow(10, Double(k))
                for z in [y, -y, y.nextUp, y.nextDown] where z.isFinite {
                    if JSONValue.number(z).serialized() != formatNumber(z), mismatches.count < 5 { mismatches.append(z.description) }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(JSONValue.number(-0.0).serialized() == "0" && JSONValue.number(.infinity).serialized() == "null")
        #expect(JSONValue.number(-999_999_999_999_999).serialized() == "-999999999999999")
    }
}
