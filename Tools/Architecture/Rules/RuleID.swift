/// The rules `arch-check` enforces; the raw value is what a report and an exemption name.
public enum RuleID: String, CaseIterable, Sendable {
    /// A feature core imports only the kernel and the toolchain's standard modules.
    case coreImports = "imports.core-only-kernel"
    /// No feature imports another feature.
    case crossFeature = "imports.no-cross-feature"
    /// Views import only the kernel, their own core, the front-end kits and ArgumentParser.
    case viewImports = "imports.views-no-infrastructure"
    /// Only the service graph imports implementation targets (live, remote).
    case liveImports = "imports.live-only-in-graph"
    /// The other layers keep to their own: the kernel imports only the standard library; a
    /// feature's live, API, remote and server targets their own core (and API), the kernel and
    /// infrastructure; infrastructure and front-end kits the kernel and their own layer; the
    /// graph no front end; the server's root no client target (other packages allowed where noted).
    case layerImports = "imports.layer-order"
    /// The server's root imports no feature's API target: a feature's wire types are read and
    /// written in its own server target, beside its routes.
    case wireInFeature = "imports.wire-in-feature"
    /// Only `SettingsKit` imports swift-configuration: both executables load their settings
    /// through its one table-driven loader.
    case oneSettingsMechanism = "imports.one-settings-mechanism"
    /// Every target under `Modules/` and `Apps/` sits in a folder that has a role.
    case targetRole = "layout.target-role"
    /// View models are `@MainActor`.
    case viewModelMainActor = "viewmodel.main-actor"
    /// View models are `@Observable`.
    case viewModelObservable = "viewmodel.observable"
    /// A view model's stored state is `private(set)` (or private).
    case viewModelPrivateSet = "viewmodel.private-set"
    /// A view model's `init` starts no work: no `await`, no `Task`, no call to its own methods.
    case viewModelInit = "viewmodel.no-load-in-init"
    /// A view model uses no terminal or formatting types: data out, the view formats.
    case viewModelUITypes = "viewmodel.no-ui-types"
    /// A view model is at most 300 lines.
    case viewModelLength = "viewmodel.max-lines"
    /// A service is declared as a protocol; concrete types are its implementations.
    case serviceProtocol = "service.protocol"
    /// A service protocol is `Sendable`.
    case serviceSendable = "service.sendable"
    /// A service implementation holds no UI state.
    case serviceUIState = "service.no-ui-state"
    /// A service protocol's requirements return no storage or wire types.
    case servicePlainTypes = "service.plain-returns"
    /// An implementation of `XService` is `InMemoryXService`, `SQLXService`, `RemoteXService` or
    /// `PostgresXService`, unless it decorates one (holds an `XService` it serves in front of).
    case implementationName = "naming.service-impl"
    /// Every service protocol of a feature core has an in-memory implementation beside it.
    case inMemoryImplementation = "naming.in-memory-impl"
    /// An observable class is a view model and is named `…ViewModel`.
    case viewModelName = "naming.view-model"
    /// A file is named after a type it declares (the small ones that serve it may sit beside
    /// it), or, for a group of one kind (`…Adapter`), after the kind in the plural (`Adapters.swift`).
    case fileName = "naming.file-after-type"
    /// A file of a few lines that declares a type or an extension: put it beside what it serves.
    case tinyFile = "layout.tiny-file"
    /// A target keeps at most `LayoutRules.maxFilesPerFolder` files in its own folder; more are
    /// grouped in subfolders by concept.
    case subfolders = "layout.subfolders"
    /// An exemption states its reason.
    case exemptionReason = "exemption.reason"
}
