/// What a target is in the architecture, read off where it lives.
public enum ModuleRole: Equatable, Sendable {
    /// `Modules/Kernel`: identifiers, errors, clock; no I/O, no feature knowledge.
    case kernel
    /// `Modules/<Feature>/Core`: models, service protocol, in-memory service, view models.
    case featureCore(String)
    /// `Modules/<Feature>/Views`: CLI commands and REPL screens.
    case featureViews(String)
    /// `Modules/<Feature>/Live`: implementations over shared infrastructure.
    case featureLive(String)
    /// `Modules/Infrastructure/*`: what live implementations share (the SQL store).
    case infrastructure
    /// `Modules/Frontends/*`: the CLI and REPL kits.
    case frontendKit
    /// `Modules/Container`, `Modules/App`, `Apps/*`: the places that wire everything together.
    case compositionRoot
    /// `Tools/*` and `Tests/*`: outside the layer rules.
    case tooling

    /// Folders of `Modules/` that hold no feature, and the parts of a feature's folder: names a
    /// feature cannot take.
    public static let reservedFolderNames: Set<String> = ["Kernel", "Container", "App", "Infrastructure", "Frontends", "Core", "Views", "Live"]

    /// The role of a target at `path` (relative to the package root).
    public init(path: String) {
        let parts = path.split(separator: "/").map(String.init)
        switch (parts.first, parts.count) {
        case ("Modules", 2) where parts[1] == "Kernel": self = .kernel
        case ("Modules", 2) where parts[1] == "Container" || parts[1] == "App": self = .compositionRoot
        case ("Modules", 3) where parts[1] == "Infrastructure": self = .infrastructure
        case ("Modules", 3) where parts[1] == "Frontends": self = .frontendKit
        case ("Modules", 3) where parts[2] == "Core": self = .featureCore(parts[1])
        case ("Modules", 3) where parts[2] == "Views": self = .featureViews(parts[1])
        case ("Modules", 3) where parts[2] == "Live": self = .featureLive(parts[1])
        case ("Apps", _): self = .compositionRoot
        default: self = .tooling
        }
    }

    /// The feature a target belongs to, if any.
    public var feature: String? {
        switch self {
        case .featureCore(let name), .featureViews(let name), .featureLive(let name): name
        default: nil
        }
    }

    /// True for targets the layer rules apply to.
    public var isChecked: Bool { self != .tooling }
}
