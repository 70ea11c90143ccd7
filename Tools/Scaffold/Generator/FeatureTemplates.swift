/// The files of a new feature, with `__Name__` standing for its name and `__name__` for its
/// lower-case name. What they make: a model, a service protocol with an in-memory implementation,
/// a view model, a factory the container conforms to, a CLI command and a REPL command that show
/// the service's data, and view-model tests.
enum FeatureTemplates {
    /// Path (relative to the package root) → contents.
    static let files: [String: String] = [
        "Modules/__Name__/Core/__Name__Item.swift": item,
        "Modules/__Name__/Core/__Name__Service.swift": service,
        "Modules/__Name__/Core/InMemory__Name__Service.swift": inMemoryService,
        "Modules/__Name__/Core/__Name__ViewModel.swift": viewModel,
        "Modules/__Name__/Core/__Name__Factory.swift": factory,
        "Modules/__Name__/Views/__Name__Command.swift": command,
        "Modules/__Name__/Views/__Name__Feature.swift": feature,
        "Modules/__Name__/Views/__Name__Screen.swift": screen,
        "Tests/__Name__Tests/__Name__ViewModelTests.swift": tests,
    ]

    /// With `--wire`: the feature's wire contract, its server routes and its remote service, in
    /// the API, Server and Remote targets `Package.swift` makes for each of `wireFeatures`.
    static let wireFiles: [String: String] = [
        "Modules/__Name__/API/__Name__API.swift": api,
        "Modules/__Name__/Server/__Name__Routes.swift": routes,
        "Modules/__Name__/Remote/Remote__Name__Service.swift": remoteService,
    ]

    static let api = """
        import Kernel
        import __Name__

        /// __Name__'s wire contract: the endpoints of `__Name__Service`, each answered by the server's
        /// service of the caller (`__Name__Routes`) and called by `Remote__Name__Service`.
        public enum __Name__API {
            /// Every item.
            public static let items = Endpoint<NoContent, __Name__Items, PathParameters.None>(.get, "/v1/__name__", "Every __name__ item, oldest first")
            /// Adds an item.
            public static let add = Endpoint<__Name__Addition, __Name__Item, PathParameters.None>(.post, "/v1/__name__", "Add a __name__ item")

            /// Every __Name__ endpoint.
            public static let endpoints = [items.spec, add.spec]
        }

        /// The items, as the server sends them.
        public struct __Name__Items: WireType, Equatable {
            /// Most items one answer carries.
            public static let maxItems = 10_000

            public let items: [__Name__Item]

            /// Creates the answer.
            public init(_ items: [__Name__Item]) { self.items = items }

            public static let schema = WireSchema.object([("items", .array(__Name__Item.schema, maxItems: maxItems))], required: ["items"])
        }

        /// The body of an addition.
        public struct __Name__Addition: WireType, Equatable {
            public let title: String

            /// Creates the body.
            public init(title: String) { self.title = title }

            public static let schema = WireSchema.object([("title", .string(minLength: 1, maxLength: Validation.maxTitleLength))], required: ["title"])
        }

        extension __Name__Item: WireType {
            public static let schema = WireSchema.object([("id", .identifier), ("title", .string(minLength: 1, maxLength: Validation.maxTitleLength))],
                                                         required: ["id", "title"])
        }

        """

    static let routes = """
        import Kernel
        import __Name__
        import __Name__API
        import ServerSupport

        /// __Name__'s routes, each answered by the caller's `__Name__Service`, for the server to add with
        /// the other features' (`ServerRoutes`) once the feature is served. Each call should spend from
        /// the caller's budget (`UsageBudget`) before the feature serves strangers.
        public struct __Name__Routes: Sendable {
            private let service: @Sendable (Caller) -> any __Name__Service

            /// Creates the routes; `service` builds the __name__ service of a caller.
            public init(service: @escaping @Sendable (Caller) -> any __Name__Service) { self.service = service }

            /// Registers every __Name__ endpoint.
            public func add(to routes: APIRoutes) {
                let service = service
                routes.add(__Name__API.items) { call in __Name__Items(try await service(call.caller).items()) }
                routes.add(__Name__API.add) { call in try await service(call.caller).add(title: call.body.title) }
            }
        }

        """

    static let remoteService = """
        import Kernel
        import RemoteClient
        import __Name__
        import __Name__API

        /// One caller's __Name__ on the MessageAI server, for the remote backend (`RemoteBackend`) to make
        /// once the feature is served.
        public struct Remote__Name__Service: __Name__Service {
            private let connection: RemoteConnection
            private let caller: Caller

            /// Creates the service for `caller` over the process's connection.
            public init(connection: RemoteConnection, caller: Caller) {
                self.connection = connection
                self.caller = caller
            }

            public func items() async throws -> [__Name__Item] {
                try await connection.call(__Name__API.items, body: NoContent(), as: caller).items
            }

            public func add(title: String) async throws -> __Name__Item {
                try await connection.call(__Name__API.add, body: __Name__Addition(title: title), as: caller)
            }
        }

        """

    static let item = """
        import Foundation
        import Kernel

        /// One item of __Name__.
        public struct __Name__Item: Codable, Equatable, Sendable, Identifiable {
            /// Its identifier.
            public let id: String
            /// What it says.
            public let title: String

            /// Creates an item.
            public init(id: String, title: String) {
                self.id = id
                self.title = title
            }
        }

        """

    static let service = """
        import Kernel

        /// __Name__'s data, as its view model asks for it (`swift run new-feature --store` writes it
        /// as rules over a store kept in memory, SQLite or PostgreSQL).
        public protocol __Name__Service: Sendable {
            /// Every item, oldest first.
            func items() async throws -> [__Name__Item]
            /// Adds an item.
            /// - Throws: `AppError(.invalidInput)` for an empty title.
            func add(title: String) async throws -> __Name__Item
        }

        """

    static let inMemoryService = """
        import Foundation
        import Kernel

        /// __Name__ in memory, seeded with sample items.
        public actor InMemory__Name__Service: __Name__Service {
            private var stored: [__Name__Item]

            /// Creates the service holding `items`.
            public init(items: [__Name__Item] = [__Name__Item(id: "1", title: "Welcome to __Name__")]) {
                stored = items
            }

            public func items() async throws -> [__Name__Item] { stored }

            public func add(title: String) async throws -> __Name__Item {
                let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !title.isEmpty else { throw AppError(.invalidInput, "a __name__ item needs a title") }
                let item = __Name__Item(id: String(stored.count + 1), title: title)
                stored.append(item)
                return item
            }
        }

        """

    static let viewModel = """
        import Kernel
        import Observation

        /// The __Name__ screen: its items, and adding one.
        @MainActor
        @Observable
        public final class __Name__ViewModel {
            /// The items shown.
            public private(set) var items: Loadable<[__Name__Item]> = .idle
            /// The outcome of the last add.
            public private(set) var added: Loadable<__Name__Item> = .idle

            private let service: any __Name__Service

            /// Creates the view model over `service`; nothing loads until `load()`.
            public init(service: any __Name__Service) {
                self.service = service
            }

            /// Loads the items.
            public func load() async {
                items = .loading
                items = await .from { [service] in try await service.items() }
            }

            /// Adds an item, then reloads the list.
            public func add(title: String) async {
                added = .loading
                added = await .from { [service] in try await service.add(title: title) }
                if case .loaded = added { await load() }
            }
        }

        """

    static let factory = """
        /// Makes __Name__'s view models; the container conforms, views ask for it.
        @MainActor
        public protocol __Name__Factory {
            /// The __Name__ screen.
            func make__Name__ViewModel() -> __Name__ViewModel
        }

        """

    static let command = """
        import ArgumentParser
        import CLIKit
        import Kernel
        import __Name__

        /// `messageai __name__ [--add TITLE]`: lists the items, after adding one if asked.
        struct __Name__Command: FeatureCommand {
            static let configuration = CommandConfiguration(commandName: "__name__", abstract: "List __Name__ items (or add one).")
            @OptionGroup var global: GlobalOptions
            @Option(help: "Add an item with this title first.") var add: String?

            func run(in context: CLIContext) async throws {
                let model = try context.factory(__Name__Factory.self).make__Name__ViewModel()
                if let add {
                    await model.add(title: add)
                    _ = try context.require(model.added)
                } else {
                    await model.load()
                }
                let items = try context.require(model.items)
                try context.emitEach(items, text: items.map { "\\($0.id). " + TerminalText.line($0.title) })
            }
        }

        """

    static let feature = """
        import ArgumentParser
        import CLIKit
        import Kernel
        import REPLKit
        import __Name__

        /// __Name__'s views, plugged into both front ends.
        public enum __Name__Feature: CLIPlugin, REPLPlugin {
            public static let featureName = "__name__"

            public static let commands: [any ParsableCommand.Type] = [__Name__Command.self]

            @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
                route == .feature(featureName) ? __Name__Screen(context: context) : nil
            }

            /// The feature's own screen: where it starts alone, after any of the built-in features' screens.
            @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
                REPLStart(.feature(featureName), rank: 5)
            }

            @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
                [
                    REPLCommand("__name__", arguments: "[TITLE]", summary: "list __Name__ items, or add one") { title in
                        let model = context.factory(__Name__Factory.self).make__Name__ViewModel()
                        if title.isEmpty {
                            await model.load()
                        } else {
                            await model.add(title: title)
                            if let error = model.added.error { return context.showError(error) }
                        }
                        await context.present(model.items) { items in
                            items.map { "\\($0.id). " + TerminalText.line($0.title) }.forEach(context.show)
                        }
                    },
                ]
            }
        }

        """

    static let screen = """
        import CLIKit
        import Kernel
        import REPLKit
        import __Name__

        /// __Name__'s REPL screen: its items; a line typed here adds one.
        @MainActor
        final class __Name__Screen: REPLScreen {
            let prompt = "__name__> "
            private let context: REPLContext
            private let model: __Name__ViewModel

            init(context: REPLContext) {
                self.context = context
                model = context.factory(__Name__Factory.self).make__Name__ViewModel()
            }

            func enter() async {
                context.show("__Name__: type a line to add an item, /help for more.")
                await model.load()
                await show()
            }

            func handle(_ line: String) async {
                await model.add(title: line)
                if let error = model.added.error { return context.showError(error) }
                await show()
            }

            private func show() async {
                await context.present(model.items) { items in
                    items.map { "\\($0.id). " + TerminalText.line($0.title) }.forEach(context.show)
                }
            }
        }

        """

    static let tests = """
        import Kernel
        import Testing
        import __Name__

        @Suite("__Name__")
        @MainActor
        struct __Name__ViewModelTests {
            @Test("loading shows the service's items")
            func load() async {
                let model = __Name__ViewModel(service: Self.service(items: [__Name__Item(id: "1", title: "First")]))
                #expect(model.items == .idle)
                await model.load()
                #expect(model.items == .loaded([__Name__Item(id: "1", title: "First")]))
            }

            @Test("adding an item lists it after the others")
            func add() async {
                let model = __Name__ViewModel(service: Self.service(items: []))
                await model.add(title: "  Second  ")
                #expect(model.added == .loaded(__Name__Item(id: "1", title: "Second")))
                #expect(model.items == .loaded([__Name__Item(id: "1", title: "Second")]))
            }

            @Test("an empty title is refused and nothing is added")
            func emptyTitle() async {
                let model = __Name__ViewModel(service: Self.service(items: []))
                await model.add(title: "   ")
                #expect(model.added.error?.kind == .invalidInput)
                await model.load()
                #expect(model.items == .loaded([]))
            }

            /// The feature's service holding `items`.
            private static func service(items: [__Name__Item]) -> any __Name__Service { __service__ }
        }

        """
}
