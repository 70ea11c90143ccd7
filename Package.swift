// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// The feature plugins. Each one is a folder `Modules/<Name>/` with `Core/` (target `<Name>`:
/// models, service protocol, in-memory service, view models; depends on the kernel only),
/// `Views/` (target `<Name>Views`: its CLI commands and REPL screens) and optionally `Live/`
/// (target `<Name>Live`: implementations over shared infrastructure, SQLite's in `Live/SQLite/` and
/// PostgreSQL's in `Live/Postgres/`).
/// Adding a feature: `swift run new-feature NAME` (README, "Adding a feature").
let metrics: Target.Dependency = .product(name: "Metrics", package: "swift-metrics")
let postgres: [Target.Dependency] = ["PostgresStore", .product(name: "PostgresNIO", package: "postgres-nio")]
let features: [(name: String, live: [Target.Dependency]?)] = [
    (
        "Auth",
        ["SQLStore", .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"), .product(name: "Crypto", package: "swift-crypto")] + postgres
    ),
    ("Profile", ["SQLStore"] + postgres),
    ("ConversationList", ["SQLStore"] + postgres),
    ("Chat", ["SQLStore", metrics] + postgres),
    ("Search", ["SQLStore", .product(name: "Logging", package: "swift-log")] + postgres),
    ("Files", ["SQLStore"] + postgres),
    // new-feature adds features above this line
]

/// Whether the full-screen UI draws GIF and WebP pictures too: where the build finds Debian's
/// libgif-dev and libwebp-dev (`.ci/run` installs them). libpng-dev and libjpeg-dev are on this
/// project's machines, these two are not: without them the UI draws PNG and JPEG only, and
/// `swift run` still works on a new machine. Installed later, they count after `swift package
/// purge-cache` (SwiftPM keeps what a manifest said, in a cache of its own, until the manifest changes).
let gifAndWebP = ["/usr/include/gif_lib.h", "/usr/include/webp/demux.h"].allSatisfy { FileManager.default.fileExists(atPath: $0) }

/// The features served by `messageai-server`: each has `API/` (target `<Name>API`: its wire
/// contract), `Remote/` (`<Name>Remote`: the remote service) and `Server/` (`<Name>Server`: its routes).
let wireFeatures = [
    "Auth", "Profile", "ConversationList", "Chat", "Search", "Files",
    // new-feature --wire adds wire features above this line
]

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")

var targets: [Target] = [
    .target(name: "Kernel", path: "Modules/Kernel"),
    .target(
        name: "SQLStore",
        dependencies: ["Kernel", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
        path: "Modules/Infrastructure/SQLStore"),
    .target(
        name: "PostgresStore",
        dependencies: [
            "Kernel", logging, .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ],
        path: "Modules/Infrastructure/PostgresStore"),
    .target(
        name: "RemoteClient",
        dependencies: [
            "Kernel", logging, .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ],
        path: "Modules/Infrastructure/RemoteClient"),
    .target(
        name: "ServerSupport",
        dependencies: [
            "Kernel", logging, hummingbird, metrics, .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ],
        path: "Modules/Infrastructure/ServerSupport"),
    .target(
        name: "SettingsKit", dependencies: ["Kernel", .product(name: "Configuration", package: "swift-configuration")],
        path: "Modules/Infrastructure/SettingsKit"),
    .target(name: "CLIKit", dependencies: ["Kernel", argumentParser], path: "Modules/Frontends/CLIKit"),
    .target(name: "REPLKit", dependencies: ["Kernel", "CLIKit"], path: "Modules/Frontends/REPLKit"),
    // The pictures the full-screen UI draws are decoded by Debian's libpng and libjpeg (C, for
    // libjpeg's longjmp on errors), and GIF and WebP by giflib and libwebp where their headers
    // are found (`gifAndWebP`).
    .target(
        name: "PictureCodecs", path: "Modules/Frontends/PictureCodecs",
        cSettings: gifAndWebP ? [.define("PICTURE_CODECS_GIF_WEBP")] : [],
        linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
            + (gifAndWebP ? [.linkedLibrary("gif"), .linkedLibrary("webp"), .linkedLibrary("webpdemux")] : [])),
    .target(name: "TUIKit", dependencies: ["Kernel", "CLIKit", "REPLKit", "PictureCodecs"], path: "Modules/Frontends/TUIKit"),
    .target(
        name: "ServiceGraph",
        dependencies: [
            "Kernel", "SQLStore", "PostgresStore", "RemoteClient", logging, .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Crypto", package: "swift-crypto"),
        ] + wireFeatures.map { .init(stringLiteral: "\($0)Remote") }
            + features.flatMap { feature in
                [Target.Dependency(stringLiteral: feature.name)] + (feature.live == nil ? [] : [.init(stringLiteral: "\(feature.name)Live")])
            },
        path: "Modules/ServiceGraph"
    ),
    .target(
        name: "AppContainer",
        dependencies: ["Kernel", "ServiceGraph", "RemoteClient", "CLIKit", "SettingsKit"] + features.map { .init(stringLiteral: $0.name) },
        path: "Modules/Container"
    ),
    .target(
        name: "MessageAIApp",
        dependencies: ["Kernel", "AppContainer", "CLIKit", "REPLKit", "TUIKit", "SettingsKit", argumentParser]
            + features.map { .init(stringLiteral: "\($0.name)Views") },
        path: "Modules/App"
    ),
    .executableTarget(name: "messageai", dependencies: ["MessageAIApp", "ServiceGraph"], path: "Apps/messageai"),
    .target(
        name: "MessageAIServer",
        dependencies: [
            "Kernel", "ServiceGraph", "ServerSupport", logging, hummingbird,
            .product(name: "HummingbirdTLS", package: "hummingbird"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"), .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), "SettingsKit", metrics,
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]
            + wireFeatures.flatMap { [.init(stringLiteral: $0), .init(stringLiteral: "\($0)Server")] },
        path: "Modules/Server"
    ),
    .executableTarget(
        name: "messageai-server", dependencies: ["MessageAIServer", "ServiceGraph", "SettingsKit", "Auth", argumentParser],
        path: "Apps/messageai-server"),
    .executableTarget(
        name: "messageai-bench",
        dependencies: [
            "Kernel", "AppContainer", "ServiceGraph", "Auth", "Chat", "ChatAPI", "ConversationList", "TestSupport", "CLIKit", "TUIKit",
            argumentParser,
            "PostgresStore", "Search", "SearchLive", "Files", logging, .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ],
        path: "Tools/Benchmarks"
    ),
    .target(name: "ArchitectureModel", path: "Tools/Architecture/Model"),
    .target(
        name: "ArchitectureRules",
        dependencies: [
            "ArchitectureModel", .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
        ],
        path: "Tools/Architecture/Rules"),
    .executableTarget(name: "arch-check", dependencies: ["ArchitectureRules", argumentParser], path: "Tools/Architecture/Check"),
    .executableTarget(name: "arch-report", dependencies: ["ArchitectureModel", argumentParser], path: "Tools/Architecture/Report"),
    .target(name: "FeatureScaffold", dependencies: ["ArchitectureModel"], path: "Tools/Scaffold/Generator"),
    .executableTarget(name: "new-feature", dependencies: ["FeatureScaffold", argumentParser], path: "Tools/Scaffold/Main"),
    .target(name: "TestSupport", dependencies: ["Kernel", logging], path: "Tests/TestSupport"),
    .testTarget(name: "KernelTests", dependencies: ["Kernel", "TestSupport"], path: "Tests/KernelTests"),
    .testTarget(
        name: "ContractTests",
        dependencies: [
            "Kernel", "AppContainer", "ServiceGraph", "SQLStore", "PostgresStore", "ChatLive", "SearchLive", "AuthAPI", "TestSupport", logging,
            .product(name: "GRDB", package: "GRDB.swift"),
        ] + features.map { .init(stringLiteral: $0.name) },
        path: "Tests/ContractTests"),
    .testTarget(
        name: "SQLiteTests", dependencies: ["Kernel", "SQLStore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
        path: "Tests/SQLiteTests"),
    .testTarget(
        name: "ArchitectureTests", dependencies: ["ArchitectureModel", "ArchitectureRules", "FeatureScaffold"],
        path: "Tests/ArchitectureTests"),
    .testTarget(
        name: "ServerTests",
        dependencies: [
            "MessageAIServer", "ServiceGraph", "ServerSupport", "RemoteClient", "ChatRemote", "Kernel", "TestSupport", hummingbird,
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "NIOEmbedded", package: "swift-nio"),
        ]
            + wireFeatures.flatMap { [.init(stringLiteral: $0), .init(stringLiteral: "\($0)API"), .init(stringLiteral: "\($0)Server")] },
        path: "Tests/ServerTests"),
    .testTarget(
        name: "FrontendTests",
        dependencies: [
            "MessageAIApp", "AppContainer", "CLIKit", "REPLKit", "TUIKit", "Kernel", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ], path: "Tests/FrontendTests"),
]

for feature in wireFeatures {
    let core = Target.Dependency(stringLiteral: feature), api = Target.Dependency(stringLiteral: "\(feature)API")
    targets += [
        .target(name: "\(feature)API", dependencies: ["Kernel", core], path: "Modules/\(feature)/API"),
        .target(name: "\(feature)Remote", dependencies: ["Kernel", core, api, "RemoteClient"], path: "Modules/\(feature)/Remote"),
        .target(
            name: "\(feature)Server",
            dependencies: [
                "Kernel", core, api, "ServerSupport", hummingbird, logging,
                .product(name: "NIOCore", package: "swift-nio"),
            ], path: "Modules/\(feature)/Server"),
    ]
}

for feature in features {
    targets += [
        .target(name: feature.name, dependencies: ["Kernel"], path: "Modules/\(feature.name)/Core"),
        .target(
            name: "\(feature.name)Views", dependencies: ["Kernel", .init(stringLiteral: feature.name), "CLIKit", "REPLKit", argumentParser],
            path: "Modules/\(feature.name)/Views"),
        .testTarget(
            name: "\(feature.name)Tests", dependencies: ["Kernel", "TestSupport", .init(stringLiteral: feature.name)],
            path: "Tests/\(feature.name)Tests"),
    ]
    if let live = feature.live {
        targets.append(
            .target(
                name: "\(feature.name)Live", dependencies: ["Kernel", .init(stringLiteral: feature.name)] + live,
                path: "Modules/\(feature.name)/Live"))
    }
}

let package = Package(
    name: "MessageAI",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "messageai", targets: ["messageai"]),
        .executable(name: "messageai-server", targets: ["messageai-server"]),
        .executable(name: "arch-check", targets: ["arch-check"]),
        .executable(name: "new-feature", targets: ["new-feature"]),
        .executable(name: "arch-report", targets: ["arch-report"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: [.defaults, "YAML"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
