import LayoutFormat
import LayoutModel

/// The `.layout` parser (VFL lines included) under libFuzzer. Each input must
/// parse without a crash, a hang or a leak; an input that parses must print
/// (plainly and as VFL) to text that parses back to an equal model.
///
/// Build and run with `scripts/fuzz-parser` (which passes
/// `-sanitize=fuzzer,address -DFUZZING`). Without `FUZZING` this is a replay
/// tool: `layout-fuzz FILE...` runs the same checks on each file.
enum ParserFuzzer {
    /// The checks for one input; returns a failure description, or nil.
    static func check(_ bytes: [UInt8]) -> String? {
        let result = LayoutParser.parse(bytes: bytes, fileName: "fuzz.layout")
        _ = result.renderedDiagnostics()
        guard let layout = result.layout else { return nil }
        let plain = LayoutPrinter.print(layout)
        guard LayoutParser.parse(plain).layout == layout else { return "printed text does not parse back equal:\n\(plain)" }
        let visual = LayoutPrinter.printVisualFormat(layout)
        guard LayoutParser.parse(visual).layout == layout else { return "VFL text does not parse back equal:\n\(visual)" }
        return nil
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
