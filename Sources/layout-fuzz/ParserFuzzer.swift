import CassowaryLayout
import Foundation
import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving

/// The `.layout` parser (VFL lines included) under libFuzzer, and with
/// `LAYOUT_FUZZ_SOLVE=1` both built-in solvers behind it. Each input must
/// parse without a crash, a hang or a leak; an input that parses must print
/// (plainly and as VFL) to text that parses back to an equal model; a valid
/// layout must load, resize, take an added constraint and lose it again in
/// both solvers (with their ambiguity analyses) without a trap or an abort:
/// a thrown ``SolverError`` is an answer, a signal is a finding.
///
/// Build and run with `scripts/fuzz-parser` or `scripts/fuzz-solvers` (which
/// pass `-sanitize=fuzzer,address -DFUZZING`). Without `FUZZING` this is a
/// replay tool: `layout-fuzz FILE...` runs the same checks on each file.
enum ParserFuzzer {
    /// Whether to solve what parses (`LAYOUT_FUZZ_SOLVE=1`).
    static let solving: Bool = {
        guard let value = getenv("LAYOUT_FUZZ_SOLVE") else { return false }
        return String(cString: value) == "1"
    }()

    /// The checks for one input; returns a failure description, or nil.
    static func check(_ bytes: [UInt8]) -> String? {
        let result = LayoutParser.parse(bytes: bytes, fileName: "fuzz.layout")
        _ = result.renderedDiagnostics()
        guard let layout = result.layout else { return nil }
        let plain = LayoutPrinter.print(layout)
        guard LayoutParser.parse(plain).layout == layout else { return "printed text does not parse back equal:\n\(plain)" }
        let visual = LayoutPrinter.printVisualFormat(layout)
        guard LayoutParser.parse(visual).layout == layout else { return "VFL text does not parse back equal:\n\(visual)" }
        if solving { solve(layout) }
        return nil
    }

    /// Every variant through both solvers, each step's error ignored (it is
    /// a typed answer); what the fuzzer looks for is a trap, an abort, a
    /// leak or a hang.
    static func solve(_ layout: Layout) {
        // Why a cap: libFuzzer's inputs are short, but a `views` line can
        // declare hundreds of views; the time limit is for solver hangs.
        guard layout.views.count <= 300, layout.constraints.count <= 300 else { return }
        let solvers: [LayoutSolver] = [CassowaryLayoutSolver(), GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)]
        for solver in solvers {
            for variant in layout.allVariants {
                guard (try? solver.load(layout, variant: variant.name)) != nil else { continue }
                let size = ContainerSize(width: variant.size.width * 0.8 + 1, height: variant.size.height.map { $0 * 1.25 })
                _ = try? solver.resize(to: size)
                if let name = layout.views.first?.name, solver.capabilities.incremental,
                   let handle = try? solver.addConstraint(LayoutConstraint(ItemAttribute(name, .width), .lessThanOrEqual, nil,
                                                                           constant: variant.size.width, priority: Priority(500))) {
                    _ = try? solver.solve()
                    _ = try? solver.removeConstraint(handle)
                    _ = try? solver.solve()
                }
            }
        }
    }
}

#if FUZZING
/// One libFuzzer input.
@_cdecl("LLVMFuzzerTestOneInput")
public func layoutFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = ParserFuzzer.check(Array(UnsafeBufferPointer(start: data, count: size))) {
        // A finding: libFuzzer saves the input that caused it.
        fatalError(failure)
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point as `<module>_main`; hand it to libFuzzer's driver.
@_cdecl("layout_fuzz_main")
public func layoutFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, layoutFuzzerTestOneInput)
}
#else
import Foundation

@main
struct Replay {
    static func main() {
        var failures = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                failures += 1
                continue
            }
            if let failure = ParserFuzzer.check([UInt8](data)) {
                print("\(path): \(failure)")
                failures += 1
            }
        }
        print("replayed \(CommandLine.arguments.count - 1) input(s), \(failures) failure(s)")
        exit(failures == 0 ? 0 : 1)
    }
}
#endif
