// swift-tools-version: 6.1
//
// A package that uses layout-bench's libraries as a new user's would: by a
// `.package(...)` line (here by path; elsewhere by URL), then the model, the
// Swift DSL and a solver. `.ci/run` runs its tests (scripts/check-example).

import PackageDescription

let package = Package(
    name: "FirstScreen",
    dependencies: [
        .package(name: "layout-bench", path: "../.."),
    ],
    targets: [
        .target(name: "FirstScreen", dependencies: [
            .product(name: "LayoutModel", package: "layout-bench"),
            .product(name: "LayoutDSL", package: "layout-bench"),
            .product(name: "LayoutSolving", package: "layout-bench"),
            .product(name: "CassowaryLayout", package: "layout-bench"),
            .product(name: "GLPKReference", package: "layout-bench"),
        ]),
        .testTarget(name: "FirstScreenTests", dependencies: [
            "FirstScreen",
            .product(name: "LayoutModel", package: "layout-bench"),
            .product(name: "LayoutSolving", package: "layout-bench"),
        ]),
    ]
)
