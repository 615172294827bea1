// swift-tools-version: 6.1
//
// layout-bench: the reference benchmarking and conformance harness for
// Auto Layout-style constraint solvers.
//
// Dependencies point one way:
//   LayoutModel  <-  LayoutFormat, LayoutDSL <- LayoutGenerators
//   LayoutModel  <-  LayoutSolving  <-  CassowaryLayout (+ Cassowary), GLPKReference (+ CGLPK), ExternalSolvers
//   BenchSchema (the results document; verdicts, phases, counters, baseline keys, globs)  <-  LayoutSolving, BenchHarness, BenchReports
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
        .target(name: "LayoutModel", swiftSettings: swiftSettings),

        /// The `.layout` text format: lexer, parser with located diagnostics,
        /// printer that round-trips.
        .target(name: "LayoutFormat", dependencies: ["LayoutModel"], swiftSettings: swiftSettings),

        /// Interface Builder files (`.storyboard`, `.xib`) into the model: a
        /// closed XML reader (no DTDs, no entities, bounded), the UIKit rules
        /// IB files leave implicit, Xcode's stored frames as observed expectations.
        .target(name: "IBImport", dependencies: ["LayoutModel"], swiftSettings: swiftSettings),

        /// Layouts written in Swift: typed anchors, operators, result builders.
        .target(name: "LayoutDSL", dependencies: ["LayoutModel"], swiftSettings: swiftSettings),

        /// Generated corpus families (the alternating grid scaled up, ...), written with the DSL.
        .target(name: "LayoutGenerators", dependencies: ["LayoutModel", "LayoutDSL", "BenchStatistics"], swiftSettings: swiftSettings),

        // MARK: Solving

        /// The solver protocol, solutions, tolerance, expectation checks.
        .target(name: "LayoutSolving", dependencies: ["LayoutModel", "BenchSchema"], swiftSettings: swiftSettings),

        /// The native incremental Cassowary solver (no dependencies) ...
        .target(name: "Cassowary", swiftSettings: swiftSettings),

        /// ... and its adapter to whole layouts.
        .target(name: "CassowaryLayout", dependencies: ["Cassowary", "LayoutModel", "LayoutSolving", "BenchSchema"],
                swiftSettings: swiftSettings),

        /// GLPK's C API (Debian's libglpk-dev; no pkg-config file, so none is named).
        .systemLibrary(name: "CGLPK", path: "Sources/CGLPK", providers: [.apt(["libglpk-dev"])]),

        /// The lexicographic LP reference over GLPK: exact answers, minimal
        /// conflicts, ambiguity. The only target that imports CGLPK.
        .target(name: "GLPKReference", dependencies: ["CGLPK", "LayoutModel", "LayoutSolving", "BenchSchema"],
                swiftSettings: swiftSettings),

        /// Solvers in any language, run as child processes (line-delimited JSON).
        .target(name: "ExternalSolvers", dependencies: ["LayoutModel", "LayoutSolving"], swiftSettings: swiftSettings),

        // MARK: Harness

        /// Counts heap allocations by interposing malloc and friends (glibc),
        /// for the harness's allocation figures. C, no dependencies.
        .target(name: "AllocationCounter"),

        /// Timing statistics: summaries, bootstrap intervals, the gate's tests. No dependencies.
        .target(name: "BenchStatistics", swiftSettings: swiftSettings),

        /// What the harness writes and the reports, gate and merge read, owned
        /// once: the results document (Codable, versioned), the verdicts, the
        /// timed phases, the counters, the case-name globs. No dependencies.
        .target(name: "BenchSchema", swiftSettings: swiftSettings),

        /// Cases, the solver registry, cross-checks, timings, results.
        .target(
            name: "BenchHarness",
            dependencies: ["LayoutModel", "LayoutFormat", "LayoutGenerators", "LayoutSolving", "Cassowary", "CassowaryLayout",
                           "GLPKReference", "ExternalSolvers", "AllocationCounter", "BenchStatistics", "BenchSchema"],
            swiftSettings: swiftSettings
        ),

        /// CSV, Markdown and HTML reports of a run's results, baselines and gates.
        .target(
            name: "BenchReports",
            dependencies: [
                "BenchStatistics",
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
                "Cassowary",
                "GLPKReference",
                "ExternalSolvers",
                "BenchHarness",
                "BenchSchema",
                "BenchStatistics",
                "BenchReports",
                "BenchGate",
                "IBImport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        /// `layout-bench history`: the SQLite history, its dashboard and bisect
        /// (a program apart, so GRDB's conformances do not slow every `layout-bench` start).
        .executableTarget(
            name: "layout-bench-history",
            dependencies: ["BenchHistory", "BenchSchema", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),

        /// The parser, and with LAYOUT_FUZZ_SOLVE=1 both built-in solvers, under
        /// libFuzzer (scripts/fuzz-parser, scripts/fuzz-solvers); a replay tool otherwise.
        .executableTarget(name: "layout-fuzz", dependencies: ["LayoutFormat", "LayoutModel", "LayoutSolving", "CassowaryLayout", "GLPKReference"],
                          swiftSettings: swiftSettings),

        // MARK: Tests

        .target(
            name: "LayoutTestSupport",
            dependencies: ["LayoutModel", "BenchStatistics"],
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
            dependencies: ["BenchHarness", "BenchSchema", "ExternalSolvers", "LayoutModel", "LayoutFormat", "LayoutSolving", "LayoutTestSupport",
                           "LayoutGenerators", "CassowaryLayout", "GLPKReference"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchReportsTests",
            dependencies: ["BenchReports", "BenchSchema", "BenchStatistics"],
            exclude: ["Fixtures", "Snapshots"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchHistoryTests",
            dependencies: ["BenchHistory", "BenchSchema", "BenchStatistics"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchStatisticsTests",
            dependencies: ["BenchStatistics"],
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
