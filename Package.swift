// swift-tools-version: 6.1
//
// layout-bench: the reference benchmarking and conformance harness for
// Auto Layout-style constraint solvers.
//
// Dependencies point one way:
//   LayoutModel (+ MemoryHints: the lowering's prefetch hint)  <-  LayoutFormat (+ MemoryHints), LayoutDSL <- LayoutGenerators
//   LayoutModel, BenchMetrics  <-  LayoutSolving  <-  CassowaryLayout (+ Cassowary (+ MemoryHints)), GLPKReference (+ CGLPK), ExternalSolvers
//   BenchMetrics (phases, counters)  <-  BenchSchema (the results document; verdicts, baseline keys, globs)  <-  BenchHarness, BenchReports
//   SeededRandom (SplitMix)  <-  LayoutGenerators, BenchStatistics
//   all of those + AllocationCounter  <-  BenchHarness;  BenchReports (results files only)
//   everything  <-  layout-bench (CLI)

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    // Invariant checks compiled into debug builds (tests), never into release.
    .define("LAYOUT_BENCH_INVARIANTS", .when(configuration: .debug)),
]

let package = Package(
    name: "layout-bench",
    products: [
        .executable(name: "layout-bench", targets: ["layout-bench"]),
        .executable(name: "layout-bench-history", targets: ["layout-bench-history"]),
        .library(name: "LayoutModel", targets: ["LayoutModel"]),
        .library(name: "LayoutFormat", targets: ["LayoutFormat"]),
        // For a package that lays out screens in Swift (README, "Using the libraries").
        .library(name: "LayoutDSL", targets: ["LayoutDSL"]),
        .library(name: "LayoutSolving", targets: ["LayoutSolving"]),
        .library(name: "CassowaryLayout", targets: ["CassowaryLayout"]),
        .library(name: "GLPKReference", targets: ["GLPKReference"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: Model and front ends

        /// Value types of the shared constraint model, validation and lowering
        /// to linear relations. No dependencies.
        .target(name: "LayoutModel", dependencies: ["MemoryHints"], swiftSettings: swiftSettings),

        /// The `.layout` text format: lexer, parser with located diagnostics,
        /// printer that round-trips.
        .target(name: "LayoutFormat", dependencies: ["LayoutModel", "MemoryHints"], swiftSettings: swiftSettings),

        /// Interface Builder files (`.storyboard`, `.xib`) into the model: a
        /// closed XML reader (no DTDs, no entities, bounded), the UIKit rules
        /// IB files leave implicit, Xcode's stored frames as observed expectations.
        .target(name: "IBImport", dependencies: ["LayoutModel"], swiftSettings: swiftSettings),

        /// Layouts written in Swift: typed anchors, operators, result builders.
        .target(name: "LayoutDSL", dependencies: ["LayoutModel"], swiftSettings: swiftSettings),

        /// Generated corpus families (the alternating grid scaled up, ...), written with the DSL.
        .target(name: "LayoutGenerators", dependencies: ["LayoutModel", "LayoutDSL", "SeededRandom"], swiftSettings: swiftSettings),

        // MARK: Solving

        /// The solver protocol, solutions, tolerance, expectation checks.
        .target(name: "LayoutSolving", dependencies: ["LayoutModel", "BenchMetrics"], swiftSettings: swiftSettings),

        /// The native incremental Cassowary solver (no dependencies but the hints below) ...
        .target(name: "Cassowary", dependencies: ["MemoryHints"], swiftSettings: swiftSettings),

        /// The prefetch hint of the solver's walk over its rows. C, a header.
        .target(name: "MemoryHints"),

        /// ... and its adapter to whole layouts.
        .target(name: "CassowaryLayout", dependencies: ["Cassowary", "LayoutModel", "LayoutSolving", "BenchMetrics"],
                swiftSettings: swiftSettings),

        /// GLPK's C API (Debian's libglpk-dev; no pkg-config file, so none is named).
        .systemLibrary(name: "CGLPK", path: "Sources/CGLPK", providers: [.apt(["libglpk-dev"])]),

        /// The lexicographic LP reference over GLPK: exact answers, minimal
        /// conflicts, ambiguity. The only target that imports CGLPK.
        .target(name: "GLPKReference", dependencies: ["CGLPK", "LayoutModel", "LayoutSolving", "BenchMetrics"],
                swiftSettings: swiftSettings),

        /// Solvers in any language, run as child processes (line-delimited JSON).
        .target(name: "ExternalSolvers", dependencies: ["LayoutModel", "LayoutSolving"], swiftSettings: swiftSettings),

        // MARK: Harness

        /// Counts heap allocations by interposing malloc and friends (glibc),
        /// for the harness's allocation figures. C, no dependencies.
        .target(name: "AllocationCounter"),

        /// Timing statistics: summaries, bootstrap intervals, the gate's tests. No dependencies.
        /// SplitMix64, the seeded generator of layouts, fuzzing and the bootstrap. No dependencies.
        .target(name: "SeededRandom", swiftSettings: swiftSettings),

        // Optimised in debug builds too: the gate's simulation tests resample
        // through it millions of times, at about a tenth of the speed unoptimised.
        .target(name: "BenchStatistics", dependencies: ["SeededRandom"],
                swiftSettings: swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]),

        /// What the harness writes and the reports, gate and merge read, owned
        /// once: the results document (Codable, versioned), the verdicts, the
        /// timed phases, the counters, the case-name globs. No dependencies.
        .target(name: "BenchSchema", dependencies: ["BenchMetrics"], swiftSettings: swiftSettings),

        /// The names of what a run measures: the timed phases and the counters
        /// (the solver protocol reports counters without knowing the results
        /// file). No dependencies.
        .target(name: "BenchMetrics", swiftSettings: swiftSettings),

        /// Cases, the solver registry, cross-checks, timings, results.
        .target(
            name: "BenchHarness",
            dependencies: ["LayoutModel", "LayoutFormat", "LayoutGenerators", "LayoutSolving", "Cassowary", "CassowaryLayout",
                           "GLPKReference", "ExternalSolvers", "AllocationCounter", "BenchStatistics", "BenchMetrics", "BenchSchema",
                           "SeededRandom"],
            swiftSettings: swiftSettings
        ),

        /// CSV, Markdown and HTML reports of a run's results, baselines and gates.
        .target(
            name: "BenchReports",
            dependencies: [
                "BenchStatistics",
                "BenchMetrics",
                "BenchSchema",
                .product(name: "Plot", package: "Plot"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            swiftSettings: swiftSettings
        ),

        /// The same-machine A/B gate: a revision's binary built apart, both
        /// binaries' runs interleaved (ABBA) in the steady environment.
        .target(name: "BenchGate", dependencies: ["BenchSchema", "BenchReports"], swiftSettings: swiftSettings),

        /// Every recorded run in SQLite (through GRDB), the trend dashboard
        /// and regression search over it.
        .target(name: "BenchHistory", dependencies: ["BenchSchema", "BenchStatistics", .product(name: "GRDB", package: "GRDB.swift")],
                swiftSettings: swiftSettings),

        // MARK: Command-line tool

        .executableTarget(
            name: "layout-bench",
            dependencies: [
                "LayoutModel",
                "LayoutFormat",
                "LayoutGenerators",
                "LayoutSolving",
                "GLPKReference",
                "ExternalSolvers",
                "BenchHarness",
                "BenchSchema",
                "BenchReports",
                "BenchGate",
                "IBImport",
                // `solve` gives the allocator's free memory back after a pipelined load.
                "AllocationCounter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        /// `layout-bench history`: the SQLite history, its dashboard and bisect
        /// (a program apart, so GRDB's conformances do not slow every `layout-bench` start).
        .executableTarget(
            name: "layout-bench-history",
            dependencies: ["BenchHistory", "BenchMetrics", "BenchSchema", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),

        /// The parser, and with LAYOUT_FUZZ_SOLVE=1 both built-in solvers, under
        /// libFuzzer (scripts/fuzz-parser, scripts/fuzz-solvers); a replay tool otherwise.
        .executableTarget(name: "layout-fuzz", dependencies: ["LayoutFormat", "LayoutModel", "LayoutSolving", "CassowaryLayout", "GLPKReference"],
                          swiftSettings: swiftSettings),

        // MARK: Tests

        .target(
            name: "LayoutTestSupport",
            dependencies: ["LayoutModel", "SeededRandom"],
            path: "Tests/LayoutTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayoutModelTests",
            dependencies: ["LayoutModel"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayoutFormatTests",
            dependencies: [
                "LayoutModel", "LayoutFormat", "LayoutTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayoutGeneratorsTests",
            dependencies: ["LayoutModel", "LayoutFormat", "LayoutGenerators", "LayoutTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CassowaryTests",
            dependencies: ["Cassowary", "CassowaryLayout", "LayoutModel", "LayoutFormat", "LayoutSolving",
                           "LayoutGenerators", "LayoutTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GLPKReferenceTests",
            dependencies: ["GLPKReference", "LayoutModel", "LayoutFormat", "LayoutSolving", "LayoutGenerators",
                           "CassowaryLayout", "LayoutTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchHarnessTests",
            dependencies: ["BenchMetrics", "BenchHarness", "BenchSchema", "ExternalSolvers", "LayoutModel", "LayoutFormat", "LayoutSolving", "LayoutTestSupport",
                           "LayoutGenerators", "CassowaryLayout", "GLPKReference", "SeededRandom"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchReportsTests",
            dependencies: ["BenchMetrics", "SeededRandom", "BenchReports", "BenchSchema", "BenchStatistics"],
            exclude: ["Fixtures", "Snapshots"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchHistoryTests",
            dependencies: ["SeededRandom", "BenchHistory", "BenchSchema", "BenchStatistics"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchStatisticsTests",
            dependencies: ["SeededRandom", "BenchStatistics"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayoutDSLTests",
            dependencies: ["LayoutDSL", "LayoutModel", "LayoutFormat", "LayoutSolving", "CassowaryLayout", "LayoutTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IBImportTests",
            dependencies: ["IBImport", "LayoutModel", "LayoutFormat", "LayoutSolving", "GLPKReference", "CassowaryLayout"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayoutBenchCLITests",
            dependencies: ["layout-bench", "layout-bench-history"],
            swiftSettings: swiftSettings
        ),
    ]
)
