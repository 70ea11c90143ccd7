/// What a target is in the architecture, read off where it lives. Every target under `Modules/`
/// and `Apps/` has one; a target in a folder with no role is itself a violation.
public enum ModuleRole: Equatable, Sendable {
    /// `Modules/Kernel`: identifiers, errors, clock; no I/O, no feature knowledge.
    case kernel
    /// `Modules/<Feature>/Core`: models, service protocol, in-memory service, view models.
    case featureCore(String)
    /// `Modules/<Feature>/Views`: CLI commands and REPL screens.
    case featureViews(String)
    /// `Modules/<Feature>/Live`: implementations over shared infrastructure (SQL).
    case featureLive(String)
    /// `Modules/<Feature>/API`: the feature's wire contract (routes, bodies, event frames),
    /// shared by its remote implementation and its server routes.
    case featureAPI(String)
    /// `Modules/<Feature>/Remote`: `Remote…Service` over the shared HTTP/WebSocket client.
    case featureRemote(String)
    /// `Modules/<Feature>/Server`: the feature's server routes.
    case featureServer(String)
    /// `Modules/Infrastructure/*`: what implementations share (the SQL store, the API client).
    case infrastructure
    /// `Modules/Frontends/*`: the CLI and REPL kits.
    case frontendKit
    /// `Modules/ServiceGraph`: opens what a process shares and builds services per caller; the
    /// one place that imports implementations.
    case serviceGraph
    /// `Modules/Container`, `Modules/App`, `Apps/messageai`: the client's composition root.
    case clientRoot
    /// `Modules/Server`, `Apps/messageai-server`: the server's composition root.
    case serverRoot
    /// `Tools/*` and `Tests/*`: outside the layer rules.
    case tooling
    /// A folder under `Modules/` or `Apps/` that has no role.
    case unassigned

    /// Folders of `Modules/` that hold no feature, and the parts of a feature's folder: names a
    /// feature cannot take.
    public static let reservedFolderNames: Set<String> = [
        "Kernel", "Container", "App", "Infrastructure", "Frontends", "ServiceGraph", "Server",
        "Core", "Views", "Live", "API", "Remote",
    ]

    /// The role of a target at `path` (relative to the package root).
    public init(path: String) {
        let parts = path.split(separator: "/").map(String.init)
        switch (parts.first, parts.count) {
        case ("Modules", 2):
            switch parts[1] {
            case "Kernel": self = .kernel
            case "ServiceGraph": self = .serviceGraph
            case "Container", "App": self = .clientRoot
            case "Server": self = .serverRoot
            default: self = .unassigned
            }
        case ("Modules", 3) where parts[1] == "Infrastructure": self = .infrastructure
        case ("Modules", 3) where parts[1] == "Frontends": self = .frontendKit
        case ("Modules", 3):
            switch parts[2] {
            case "Core": self = .featureCore(parts[1])
            case "Views": self = .featureViews(parts[1])
            case "Live": self = .featureLive(parts[1])
            case "API": self = .featureAPI(parts[1])
            case "Remote": self = .featureRemote(parts[1])
            case "Server": self = .featureServer(parts[1])
            default: self = .unassigned
            }
        case ("Apps", 2) where parts[1] == "messageai": self = .clientRoot
        case ("Apps", 2) where parts[1] == "messageai-server": self = .serverRoot
        case ("Tools", _), ("Tests", _): self = .tooling
        default: self = .unassigned
        }
    }

    /// The feature a target belongs to, if any.
    public var feature: String? {
        switch self {
        case .featureCore(let name), .featureViews(let name), .featureLive(let name), .featureAPI(let name), .featureRemote(let name),
            .featureServer(let name):
            name
        default: nil
        }
    }

    /// True for the targets that implement a feature's service over something real (live and
    /// remote): only the service graph builds them.
    public var isImplementation: Bool {
        switch self {
        case .featureLive, .featureRemote: true
        default: false
        }
    }

    /// True for targets the layer rules apply to.
    public var isChecked: Bool { self != .tooling }
}
