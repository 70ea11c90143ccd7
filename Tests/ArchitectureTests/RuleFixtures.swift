import ArchitectureModel
import ArchitectureRules

/// A small package graph and a way to check fixture sources against it.
enum RuleFixtures {
    static let graph = PackageGraph(targets: [
        PackageTarget(name: "Kernel", path: "Modules/Kernel"),
        PackageTarget(name: "Chat", path: "Modules/Chat/Core", targetDependencies: ["Kernel"]),
        PackageTarget(name: "ChatViews", path: "Modules/Chat/Views", targetDependencies: ["Kernel", "Chat", "CLIKit"]),
        PackageTarget(name: "ChatLive", path: "Modules/Chat/Live", targetDependencies: ["Kernel", "Chat", "SQLStore"]),
        PackageTarget(name: "Profile", path: "Modules/Profile/Core", targetDependencies: ["Kernel"]),
        PackageTarget(name: "SQLStore", path: "Modules/Infrastructure/SQLStore", productDependencies: ["GRDB"]),
        PackageTarget(name: "CLIKit", path: "Modules/Frontends/CLIKit", productDependencies: ["ArgumentParser"]),
        PackageTarget(name: "ChatAPI", path: "Modules/Chat/API", targetDependencies: ["Kernel", "Chat"]),
        PackageTarget(name: "ChatRemote", path: "Modules/Chat/Remote", targetDependencies: ["Kernel", "Chat", "ChatAPI", "APIClient"]),
        PackageTarget(name: "ChatServer", path: "Modules/Chat/Server", targetDependencies: ["Kernel", "Chat", "ChatAPI"]),
        PackageTarget(name: "APIClient", path: "Modules/Infrastructure/APIClient"),
        PackageTarget(name: "SettingsKit", path: "Modules/Infrastructure/SettingsKit", productDependencies: ["Configuration"]),
        PackageTarget(name: "REPLKit", path: "Modules/Frontends/REPLKit", targetDependencies: ["Kernel"]),
        PackageTarget(name: "ServiceGraph", path: "Modules/ServiceGraph", targetDependencies: ["Chat", "ChatLive", "ChatRemote"]),
        PackageTarget(name: "AppContainer", path: "Modules/Container", targetDependencies: ["Chat", "ServiceGraph"]),
        PackageTarget(name: "MessageAIServer", path: "Modules/Server", targetDependencies: ["ServiceGraph", "ChatServer"]),
        PackageTarget(name: "messageai-server", path: "Apps/messageai-server", targetDependencies: ["MessageAIServer"]),
        PackageTarget(name: "ChatTests", path: "Tests/ChatTests", targetDependencies: ["ChatLive"]),
    ])

    /// The reports for `sources` (path → text), each file in the target whose folder holds it.
    static func check(_ sources: [String: String], graph: PackageGraph = graph, manifest: String = "") -> [String] {
        let files = sources.map { path, text in
            let target = graph.targets.filter { path.hasPrefix($0.path + "/") }.max { $0.path.count < $1.path.count }!
            return SourceFile(path: path, text: text, target: target)
        }
        return ArchitectureChecker(graph: graph, files: files, manifest: manifest).violations().map(\.description)
    }

    /// A view model that follows every rule; fixtures break one thing at a time.
    static let goodViewModel = """
        import Kernel
        import Observation

        /// The thing screen.
        @MainActor
        @Observable
        public final class ThingViewModel {
            public private(set) var things: [String] = []
            private let names: [String]

            public init(names: [String]) {
                self.names = names
            }

            public func load() async {
                things = names
            }
        }
        """

    /// A service protocol and its in-memory implementation that follow every rule.
    static let goodService = """
        import Kernel

        /// Things.
        public protocol ThingService: Sendable {
            /// All things.
            func things() async throws -> [String]
        }
        """
    static let goodInMemoryService = """
        import Kernel

        /// Things in memory.
        public struct InMemoryThingService: ThingService {
            public init() {}
            public func things() async throws -> [String] { ["a"] }
        }
        """
}
