import ArchitectureModel
import ArchitectureRules
import Foundation
import Testing

/// One fixture: sources that break (or keep) a rule, and the exact report expected.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let sources: [String: String]
    let expected: [String]
    var testDescription: String { rule }
}

private let core = "Modules/Chat/Core"
private let good = RuleFixtures.goodViewModel

@Suite("Architecture rules", .timeLimit(.minutes(1)))
struct ArchitectureRulesTests {
    static let cases: [RuleCase] = [
        RuleCase(
            rule: "clean fixtures pass",
            sources: [
                "\(core)/ThingViewModel.swift": good,
                "\(core)/ThingService.swift": RuleFixtures.goodService,
                "\(core)/InMemoryThingService.swift": RuleFixtures.goodInMemoryService,
                "Modules/ServiceGraph/Wiring.swift": "import ChatLive\nimport ChatRemote\nimport Chat\nimport GRDB\n",
                "Modules/Container/Container.swift": "import ServiceGraph\nimport Chat\nimport REPLKit\n",
                "Modules/Chat/API/ChatRoutes.swift": "import Chat\nimport Kernel\nimport Foundation\n",
                "Modules/Chat/Remote/Client.swift": "import Chat\nimport ChatAPI\nimport APIClient\nimport AsyncHTTPClient\n",
                "Modules/Chat/Server/Routes.swift": "import Chat\nimport ChatAPI\nimport Hummingbird\n",
                "Modules/Server/Application.swift": "import ServiceGraph\nimport ChatServer\nimport Hummingbird\n",
                "Modules/Chat/Live/PostgresThingService.swift": "import Chat\n\nstruct PostgresThingService: ThingService {}\n",
            ], expected: []),
        RuleCase(
            rule: "imports.core-only-kernel", sources: ["\(core)/Store.swift": "import Foundation\nimport GRDB\n"],
            expected: ["\(core)/Store.swift:2: imports.core-only-kernel: a feature core imports only Kernel and the standard library, not GRDB"]),
        RuleCase(
            rule: "imports.no-cross-feature", sources: ["\(core)/Names.swift": "import Kernel\nimport Profile\n"],
            expected: [
                "\(core)/Names.swift:2: imports.no-cross-feature: Chat imports Profile of feature Profile; features meet only through ports and the composition root"
            ]),
        RuleCase(
            rule: "imports.views-no-infrastructure",
            sources: ["Modules/Chat/Views/ChatScreen.swift": "import CLIKit\nimport Chat\nimport SQLStore\n"],
            expected: [
                "Modules/Chat/Views/ChatScreen.swift:3: imports.views-no-infrastructure: views import only Kernel, their feature core, the front-end kits and ArgumentParser, not SQLStore"
            ]),
        RuleCase(
            rule: "imports.live-only-in-graph",
            sources: [
                "Modules/Chat/Views/ChatScreen.swift": "import ChatLive\n",
                "Modules/Container/Wiring.swift": "import ChatRemote\n",
            ],
            expected: [
                "Modules/Chat/Views/ChatScreen.swift:1: imports.live-only-in-graph: only the service graph (Modules/ServiceGraph) imports implementation targets like ChatLive",
                "Modules/Container/Wiring.swift:1: imports.live-only-in-graph: only the service graph (Modules/ServiceGraph) imports implementation targets like ChatRemote",
            ]),
        RuleCase(
            rule: "imports.layer-order (API, remote, server routes, graph, server root)",
            sources: [
                "Modules/Chat/API/ChatRoutes.swift": "import Chat\nimport SQLStore\n",
                "Modules/Chat/Remote/RemoteThing.swift": "import Chat\nimport AppContainer\n",
                "Modules/Chat/Server/Routes.swift": "import ChatAPI\nimport ChatLive\n",
                "Modules/ServiceGraph/Wiring.swift": "import Chat\nimport REPLKit\n",
                "Modules/Server/Application.swift": "import ServiceGraph\nimport ChatLive\nimport REPLKit\nimport AppContainer\n",
            ],
            expected: [
                "Modules/Chat/API/ChatRoutes.swift:2: imports.layer-order: a wire contract imports only its feature core, Kernel and the standard library, not SQLStore",
                "Modules/Chat/Remote/RemoteThing.swift:2: imports.layer-order: a remote implementation imports only its feature core and API, Kernel, infrastructure and other packages, not AppContainer",
                "Modules/Chat/Server/Routes.swift:2: imports.live-only-in-graph: only the service graph (Modules/ServiceGraph) imports implementation targets like ChatLive",
                "Modules/Server/Application.swift:2: imports.live-only-in-graph: only the service graph (Modules/ServiceGraph) imports implementation targets like ChatLive",
                "Modules/Server/Application.swift:3: imports.layer-order: the server's composition root imports only Kernel, feature cores and server targets, the service graph, infrastructure and other packages, not REPLKit",
                "Modules/Server/Application.swift:4: imports.layer-order: the server's composition root imports only Kernel, feature cores and server targets, the service graph, infrastructure and other packages, not AppContainer",
                "Modules/ServiceGraph/Wiring.swift:2: imports.layer-order: the service graph imports only Kernel, feature cores and implementations, infrastructure and other packages, not REPLKit",
            ]),
        RuleCase(
            rule: "imports.wire-in-feature",
            sources: [
                "Modules/Server/EventConnection.swift": "import Chat\nimport ChatAPI\nimport ChatServer\n",
                "Apps/messageai-server/Main.swift": "import ChatAPI\n",
            ],
            expected: [
                "Apps/messageai-server/Main.swift:1: imports.wire-in-feature: the server's root imports no feature API; read and write Chat's wire types in ChatServer, beside its routes",
                "Modules/Server/EventConnection.swift:2: imports.wire-in-feature: the server's root imports no feature API; read and write Chat's wire types in ChatServer, beside its routes",
            ]),
        RuleCase(
            rule: "imports.one-settings-mechanism",
            sources: [
                "Modules/Infrastructure/SettingsKit/SettingsLoader.swift": "import Configuration\nimport Kernel\n",
                "Modules/Server/ServerSettings.swift": "import Configuration\nimport SettingsKit\n",
                "Modules/Container/Settings.swift": "import Configuration\n",
            ],
            expected: [
                "Modules/Container/Settings.swift:1: imports.one-settings-mechanism: only SettingsKit imports Configuration; load settings through its SettingTable and SettingsLoader",
                "Modules/Server/ServerSettings.swift:1: imports.one-settings-mechanism: only SettingsKit imports Configuration; load settings through its SettingTable and SettingsLoader",
            ]),
        RuleCase(
            rule: "imports.no-cross-feature (server routes)", sources: ["Modules/Chat/Server/Routes.swift": "import ChatAPI\nimport Profile\n"],
            expected: [
                "Modules/Chat/Server/Routes.swift:2: imports.no-cross-feature: Chat imports Profile of feature Profile; features meet only through ports and the composition root"
            ]),
        RuleCase(
            rule: "imports.layer-order (kernel, infrastructure, kits, live)",
            sources: [
                "Modules/Kernel/Clock.swift": "import Foundation\nimport GRDB\n",
                "Modules/Infrastructure/SQLStore/Store.swift": "import GRDB\nimport Chat\n",
                "Modules/Frontends/CLIKit/Output.swift": "import ArgumentParser\nimport SQLStore\n",
                "Modules/Chat/Live/Wiring.swift": "import Chat\nimport SQLStore\nimport AppContainer\n",
            ],
            expected: [
                "Modules/Chat/Live/Wiring.swift:3: imports.layer-order: a live target imports only its feature core, Kernel, infrastructure and other packages, not AppContainer",
                "Modules/Frontends/CLIKit/Output.swift:2: imports.layer-order: shared infrastructure and front-end kits import only Kernel, their own layer and other packages, not SQLStore",
                "Modules/Infrastructure/SQLStore/Store.swift:2: imports.layer-order: shared infrastructure and front-end kits import only Kernel, their own layer and other packages, not Chat",
                "Modules/Kernel/Clock.swift:2: imports.layer-order: the kernel imports only the standard library, not GRDB",
            ]),
        RuleCase(
            rule: "an import inside #if is checked too", sources: ["\(core)/Store.swift": "#if canImport(GRDB)\nimport GRDB\n#endif\n"],
            expected: ["\(core)/Store.swift:2: imports.core-only-kernel: a feature core imports only Kernel and the standard library, not GRDB"]),
        RuleCase(
            rule: "viewmodel.main-actor", sources: ["\(core)/ThingViewModel.swift": good.replacingOccurrences(of: "@MainActor\n", with: "")],
            expected: ["\(core)/ThingViewModel.swift:5: viewmodel.main-actor: ThingViewModel is not @MainActor"]),
        RuleCase(
            rule: "viewmodel.observable", sources: ["\(core)/ThingViewModel.swift": good.replacingOccurrences(of: "@Observable\n", with: "")],
            expected: ["\(core)/ThingViewModel.swift:5: viewmodel.observable: ThingViewModel is not @Observable"]),
        RuleCase(
            rule: "viewmodel.private-set",
            sources: ["\(core)/ThingViewModel.swift": good.replacingOccurrences(of: "public private(set) var", with: "public var")],
            expected: ["\(core)/ThingViewModel.swift:8: viewmodel.private-set: ThingViewModel.things can be set from outside; make it private(set)"]),
        RuleCase(
            rule: "viewmodel.no-load-in-init",
            sources: [
                "\(core)/ThingViewModel.swift": good.replacingOccurrences(
                    of: "self.names = names\n", with: "self.names = names\n        Task { await load() }\n")
            ],
            expected: [
                "\(core)/ThingViewModel.swift:13: viewmodel.no-load-in-init: ThingViewModel.init starts a Task; start loading from the view, which can cancel it"
            ]),
        RuleCase(
            rule: "viewmodel.no-load-in-init (a direct call)",
            sources: [
                "\(core)/ThingViewModel.swift": good.replacingOccurrences(of: "self.names = names\n", with: "self.names = names\n        reset()\n")
                    .replacingOccurrences(of: "    public func load", with: "    private func reset() {}\n\n    public func load")
            ],
            expected: [
                "\(core)/ThingViewModel.swift:13: viewmodel.no-load-in-init: ThingViewModel.init calls reset(); start loading from the view, which can cancel it"
            ]),
        RuleCase(
            rule: "viewmodel.no-ui-types",
            sources: [
                "\(core)/ThingViewModel.swift": good.replacingOccurrences(of: "things = names\n", with: "things = names\n        print(things)\n")
            ],
            expected: [
                "\(core)/ThingViewModel.swift:17: viewmodel.no-ui-types: ThingViewModel uses print; give values out and let the view format them"
            ]),
        RuleCase(
            rule: "viewmodel.max-lines",
            sources: [
                "\(core)/ThingViewModel.swift": good.replacingOccurrences(
                    of: "    public func load", with: String(repeating: "    // padding\n", count: 290) + "    public func load")
            ], expected: ["\(core)/ThingViewModel.swift:5: viewmodel.max-lines: ThingViewModel is 304 lines (at most 300); split it by concern"]),
        RuleCase(
            rule: "service.protocol", sources: ["\(core)/ThingService.swift": "public struct ThingService {}\n"],
            expected: [
                "\(core)/ThingService.swift:1: service.protocol: ThingService is a concrete struct; declare the service as a protocol and name implementations InMemory…/SQL…/Remote…/Postgres…/Stored…"
            ]),
        RuleCase(
            rule: "service.sendable",
            sources: [
                "\(core)/ThingService.swift": RuleFixtures.goodService.replacingOccurrences(of: ": Sendable", with: ""),
                "\(core)/InMemoryThingService.swift": RuleFixtures.goodInMemoryService,
            ], expected: ["\(core)/ThingService.swift:4: service.sendable: ThingService must be Sendable: services are called from any task"]),
        RuleCase(
            rule: "service.plain-returns",
            sources: [
                "\(core)/ThingService.swift": RuleFixtures.goodService.replacingOccurrences(of: "-> [String]", with: "-> [ThingRecord]"),
                "\(core)/InMemoryThingService.swift": RuleFixtures.goodInMemoryService,
            ], expected: ["\(core)/ThingService.swift:6: service.plain-returns: ThingService hands out ThingRecord; return plain model types"]),
        RuleCase(
            rule: "service.no-ui-state",
            sources: [
                "\(core)/ThingService.swift": RuleFixtures.goodService,
                "\(core)/InMemoryThingService.swift": RuleFixtures.goodInMemoryService
                    .replacingOccurrences(of: "public init() {}", with: "let screen: ThingViewModel\n    public init() {}"),
            ],
            expected: [
                "\(core)/InMemoryThingService.swift:5: service.no-ui-state: InMemoryThingService stores ThingViewModel; UI state belongs in view models"
            ]),
        RuleCase(
            rule: "naming.service-impl",
            sources: [
                "\(core)/ThingService.swift": RuleFixtures.goodService,
                "\(core)/InMemoryThingService.swift": RuleFixtures.goodInMemoryService,
                "Modules/Chat/Live/FastThingService.swift": "import Chat\n\nstruct FastThingService: ThingService {}\n",
            ],
            expected: [
                "Modules/Chat/Live/FastThingService.swift:3: naming.service-impl: FastThingService implements ThingService; name it InMemoryThingService or SQLThingService or RemoteThingService or PostgresThingService or StoredThingService"
            ]),
        RuleCase(
            rule: "naming.service-impl (a decorator, holding the service it serves in front of, is named for what it does)",
            sources: [
                "\(core)/ThingService.swift": RuleFixtures.goodService,
                "\(core)/InMemoryThingService.swift": RuleFixtures.goodInMemoryService,
                "\(core)/QuietThingFilter.swift": "struct QuietThingFilter: ThingService {\n    let things: any ThingService\n}\n",
            ], expected: []),
        RuleCase(
            rule: "naming.in-memory-impl", sources: ["\(core)/ThingService.swift": RuleFixtures.goodService],
            expected: [
                "\(core)/ThingService.swift:4: naming.in-memory-impl: ThingService has no InMemoryThingService, nor StoredThingService and InMemoryThingStore, in Chat; every service has a mock beside it"
            ]),
        RuleCase(
            rule: "naming.in-memory-impl (the stored service over an in-memory store is the mock; the stored service alone is not)",
            sources: [
                "\(core)/ThingService.swift": RuleFixtures.goodService,
                "\(core)/StoredThingService.swift": "struct StoredThingService: ThingService {}\n",
                "\(core)/InMemoryThingStore.swift": "actor InMemoryThingStore {}\n",
            ], expected: []),
        RuleCase(
            rule: "naming.in-memory-impl (a stored service without an in-memory store)",
            sources: [
                "\(core)/ThingService.swift": RuleFixtures.goodService,
                "\(core)/StoredThingService.swift": "struct StoredThingService: ThingService {}\n",
            ],
            expected: [
                "\(core)/ThingService.swift:4: naming.in-memory-impl: ThingService has no InMemoryThingService, nor StoredThingService and InMemoryThingStore, in Chat; every service has a mock beside it"
            ]),
        RuleCase(
            rule: "naming.view-model", sources: ["\(core)/ThingStore.swift": "import Observation\n\n@Observable\nfinal class ThingStore {}\n"],
            expected: [
                "\(core)/ThingStore.swift:3: naming.view-model: ThingStore is @Observable; observable state is a view model's, named …ViewModel"
            ]),
        RuleCase(
            rule: "naming.file-after-type (a type beside the main one, a group of one kind)",
            sources: [
                "\(core)/Thing.swift": "public struct Thing {}\n\npublic struct Other {}\n",
                "Modules/ServiceGraph/Adapters.swift": "struct MembershipAdapter {}\n\nstruct UserDirectoryAdapter {}\n",
            ], expected: []),
        RuleCase(
            rule: "naming.file-after-type",
            sources: [
                "\(core)/Stuff.swift": "public struct Thing {}\n\nprivate struct Helper {}\n",
                "\(core)/Things.swift": "public struct Thing {}\n\npublic struct Other {}\n",
            ],
            expected: [
                "\(core)/Stuff.swift:1: naming.file-after-type: Stuff.swift declares Thing; name the file after its main type, or a group of one kind after the kind in the plural",
                "\(core)/Things.swift:1: naming.file-after-type: Things.swift declares Thing (and Other); name the file after its main type, or a group of one kind after the kind in the plural",
            ]),
        RuleCase(
            rule: "layout.tiny-file",
            sources: [
                "\(core)/Thing.swift": "import Kernel\n\n/// A thing.\npublic struct Thing {\n    public let name: String\n}\n",
                "\(core)/Thing+Wire.swift": "extension Thing: Codable {}\n",
                "\(core)/ThingPort.swift":
                    "/// A port: protocols keep their own file.\npublic protocol ThingPort {\n    func things() -> [Thing]\n}\n",
                "\(core)/ThingViewModel.swift": RuleFixtures.goodViewModel,
            ],
            expected: [
                "\(core)/Thing+Wire.swift:1: layout.tiny-file: Thing has 1 line of code; put it beside the type it serves, so that a concept reads in one file",
                "\(core)/Thing.swift:4: layout.tiny-file: Thing has 3 lines of code; put it beside the type it serves, so that a concept reads in one file",
            ]),
        RuleCase(
            rule: "layout.subfolders",
            sources: Dictionary(
                uniqueKeysWithValues: (1...13).map { index in
                    ("\(core)/Port\(index).swift", "public protocol Port\(index) {}\n")
                } + (1...13).map { index in ("Modules/Chat/Live/Rows/Row\(index).swift", "protocol Row\(index) {}\n") }),
            expected: [
                "\(core)/Port1.swift:1: layout.subfolders: Modules/Chat/Core holds 13 files (at most 12); group them in subfolders by concept (models, ports, in-memory, view models)"
            ]),
        RuleCase(
            rule: "an exemption with a reason silences its rule, and only it",
            sources: [
                "\(core)/Store.swift": "// arch-check: allow imports.core-only-kernel: a fixture\nimport GRDB\nimport CLIKit\n"
            ], expected: ["\(core)/Store.swift:3: imports.core-only-kernel: a feature core imports only Kernel and the standard library, not CLIKit"]),
        RuleCase(
            rule: "exemption.reason", sources: ["\(core)/Store.swift": "import GRDB // arch-check: allow imports.core-only-kernel\n"],
            expected: [
                "\(core)/Store.swift:1: exemption.reason: the exemption from imports.core-only-kernel gives no reason; write why after a colon",
                "\(core)/Store.swift:1: imports.core-only-kernel: a feature core imports only Kernel and the standard library, not GRDB",
            ]),
    ]

    /// Fixtures are a few lines each: the layout rules are checked by their own cases only.
    @Test("each rule reports exactly its fixture", arguments: cases)
    func rule(_ fixture: RuleCase) {
        let reported = RuleFixtures.check(fixture.sources).filter { fixture.rule.hasPrefix("layout.") || !$0.contains(": layout.") }
        #expect(reported == fixture.expected)
    }

    @Test("a dependency declared in Package.swift is checked like an import, at the line naming the target")
    func declaredDependencies() {
        let graph = PackageGraph(
            targets: RuleFixtures.graph.targets + [
                PackageTarget(name: "Search", path: "Modules/Search/Core", targetDependencies: ["Kernel"], productDependencies: ["GRDB"])
            ])
        let manifest = "let targets = [\n    .target(name: \"Search\", dependencies: [\"Kernel\", \"GRDB\"]),\n]\n"
        #expect(
            RuleFixtures.check([:], graph: graph, manifest: manifest) == [
                "Package.swift:2: imports.core-only-kernel: target 'Search' depends on 'GRDB': a feature core imports only Kernel and the standard library, not GRDB"
            ])
    }

    @Test("a target in a folder with no role is a violation, whatever it imports")
    func unassignedFolder() {
        let graph = PackageGraph(
            targets: RuleFixtures.graph.targets + [
                PackageTarget(name: "ChatRemotes", path: "Modules/Chat/Remotes", targetDependencies: ["AppContainer"]),
                PackageTarget(name: "Helpers", path: "Apps/helpers"),
            ])
        let manifest =
            "let targets = [\n    .target(name: \"ChatRemotes\", path: \"Modules/Chat/Remotes\"),\n    .executableTarget(name: \"Helpers\"),\n]\n"
        #expect(
            RuleFixtures.check([:], graph: graph, manifest: manifest) == [
                "Package.swift:2: layout.target-role: target 'ChatRemotes' in Modules/Chat/Remotes has no role; put it in a folder arch-check knows or give the folder a role in ModuleRole",
                "Package.swift:3: layout.target-role: target 'Helpers' in Apps/helpers has no role; put it in a folder arch-check knows or give the folder a role in ModuleRole",
            ])
    }

    @Test("targets are classified by their folder")
    func roles() {
        #expect(ModuleRole(path: "Modules/Kernel") == .kernel)
        #expect(ModuleRole(path: "Modules/Chat/Core") == .featureCore("Chat"))
        #expect(ModuleRole(path: "Modules/Chat/Views") == .featureViews("Chat"))
        #expect(ModuleRole(path: "Modules/Chat/Live") == .featureLive("Chat"))
        #expect(ModuleRole(path: "Modules/Infrastructure/SQLStore") == .infrastructure)
        #expect(ModuleRole(path: "Modules/Frontends/REPLKit") == .frontendKit)
        #expect(ModuleRole(path: "Modules/Chat/API") == .featureAPI("Chat"))
        #expect(ModuleRole(path: "Modules/Chat/Remote") == .featureRemote("Chat"))
        #expect(ModuleRole(path: "Modules/Chat/Server") == .featureServer("Chat"))
        #expect(ModuleRole(path: "Modules/ServiceGraph") == .serviceGraph)
        #expect(ModuleRole(path: "Modules/Container") == .clientRoot)
        #expect(ModuleRole(path: "Apps/messageai") == .clientRoot)
        #expect(ModuleRole(path: "Modules/Server") == .serverRoot)
        #expect(ModuleRole(path: "Apps/messageai-server") == .serverRoot)
        #expect(ModuleRole(path: "Modules/Chat/Remotes") == .unassigned)
        #expect(ModuleRole(path: "Modules/Gateway") == .unassigned)
        #expect(ModuleRole(path: "Tools/Benchmarks") == .tooling)
        #expect(ModuleRole(path: "Tests/ChatTests") == .tooling)
    }
}
