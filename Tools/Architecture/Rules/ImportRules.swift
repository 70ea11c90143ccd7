import ArchitectureModel
import SwiftSyntax

/// Who may import whom: checked on every `import` in the sources and every dependency the
/// package declares.
struct ImportRules {
    /// Modules of the toolchain a feature core may use beside the kernel.
    static let toolchainModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "Observation", "Synchronization", "Dispatch", "_Concurrency",
    ]
    /// The settings package's module, and the one target that may import it.
    static let settingsModule = (module: "Configuration", importer: "SettingsKit")
    /// External modules views may use: argument parsing for their commands.
    static let viewPackages: Set<String> = ["ArgumentParser"]

    let graph: PackageGraph

    /// Violations of the `import` declarations of `file`, wherever they stand (inside `#if` too).
    func check(_ file: SourceFile) -> [Violation] {
        let imports = ImportCollector(viewMode: .sourceAccurate)
        imports.walk(file.tree)
        return imports.found.compactMap { imported in
            guard let module = imported.path.first?.name.text,
                let (rule, message) = problem(importer: file.target, imports: module)
            else { return nil }
            return file.violation(rule, at: imported, message)
        }
    }

    /// Violations of the dependencies `Package.swift` declares, and targets in folders with no
    /// role; reported at the line naming the target in `manifest` (line 1 when a loop generates its name).
    func checkDeclaredDependencies(manifest: String) -> [Violation] {
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
        return graph.targets.flatMap { target in
            let line = (lines.firstIndex { $0.contains("\"\(target.name)\"") } ?? 0) + 1
            if target.role == .unassigned {
                return [
                    Violation(
                        path: "Package.swift", line: line, rule: .targetRole,
                        message:
                            "target '\(target.name)' in \(target.path) has no role; put it in a folder arch-check knows or give the folder a role in ModuleRole"
                    )
                ]
            }
            return (target.targetDependencies + target.productDependencies).compactMap { dependency -> Violation? in
                guard let (rule, message) = problem(importer: target, imports: dependency) else { return nil }
                return Violation(
                    path: "Package.swift", line: line, rule: rule,
                    message: "target '\(target.name)' depends on '\(dependency)': \(message)")
            }
        }
    }

    /// The rule `importer` breaks by importing `module`, if any. Every role has its list of
    /// what it may depend on, so a new kind of target is checked by default.
    func problem(importer: PackageTarget, imports module: String) -> (RuleID, String)? {
        let role = importer.role
        let importedRole = graph.role(of: module)
        if role == .unassigned || role == .tooling { return nil }
        if let feature = role.feature, let other = importedRole?.feature, other != feature {
            return (.crossFeature, "\(feature) imports \(module) of feature \(other); features meet only through ports and the composition root")
        }
        if importedRole?.isImplementation == true, role != .serviceGraph {
            return (.liveImports, "only the service graph (Modules/ServiceGraph) imports implementation targets like \(module)")
        }
        if module == Self.settingsModule.module, importer.name != Self.settingsModule.importer {
            return (
                .oneSettingsMechanism,
                "only \(Self.settingsModule.importer) imports \(module); load settings through its SettingTable and SettingsLoader"
            )
        }
        if role == .serverRoot, case .featureAPI(let feature) = importedRole {
            return (
                .wireInFeature,
                "the server's root imports no feature API; read and write \(feature)'s wire types in \(feature)Server, beside its routes"
            )
        }
        guard !Self.toolchainModules.contains(module), !mayImport(role, importedRole, module) else { return nil }
        return (Self.rule(for: role), "\(Self.allowed(role)), not \(module)")
    }

    /// The rule a role's own import list is reported under.
    private static func rule(for role: ModuleRole) -> RuleID {
        switch role {
        case .featureCore: .coreImports
        case .featureViews: .viewImports
        default: .layerImports
        }
    }

    /// What each role may import, in words, for reports.
    private static func allowed(_ role: ModuleRole) -> String {
        switch role {
        case .kernel: "the kernel imports only the standard library"
        case .featureCore: "a feature core imports only Kernel and the standard library"
        case .featureViews: "views import only Kernel, their feature core, the front-end kits and ArgumentParser"
        case .featureLive: "a live target imports only its feature core, Kernel, infrastructure and other packages"
        case .featureAPI: "a wire contract imports only its feature core, Kernel and the standard library"
        case .featureRemote: "a remote implementation imports only its feature core and API, Kernel, infrastructure and other packages"
        case .featureServer: "server routes import only their feature core and API, Kernel, infrastructure and other packages"
        case .infrastructure, .frontendKit: "shared infrastructure and front-end kits import only Kernel, their own layer and other packages"
        case .serviceGraph: "the service graph imports only Kernel, feature cores and implementations, infrastructure and other packages"
        case .clientRoot: "the client's composition root imports no server target"
        case .serverRoot:
            "the server's composition root imports only Kernel, feature cores and server targets, the service graph, infrastructure and other packages"
        case .tooling, .unassigned: "anything"
        }
    }

    /// What each role may depend on beside the toolchain (`nil`: another package's module).
    private func mayImport(_ role: ModuleRole, _ imported: ModuleRole?, _ module: String) -> Bool {
        switch (role, imported) {
        case (.featureCore, .kernel), (.featureAPI, .kernel): true
        case (.featureViews(let feature), .featureCore(let core)), (.featureLive(let feature), .featureCore(let core)),
            (.featureAPI(let feature), .featureCore(let core)), (.featureRemote(let feature), .featureCore(let core)),
            (.featureServer(let feature), .featureCore(let core)), (.featureRemote(let feature), .featureAPI(let core)),
            (.featureServer(let feature), .featureAPI(let core)):
            feature == core
        case (.featureViews, .kernel), (.featureViews, .frontendKit): true
        case (.featureViews, nil): Self.viewPackages.contains(module)
        case (.featureLive, .kernel), (.featureLive, .infrastructure), (.featureLive, nil): true
        case (.featureRemote, .kernel), (.featureRemote, .infrastructure), (.featureRemote, nil): true
        case (.featureServer, .kernel), (.featureServer, .infrastructure), (.featureServer, nil): true
        case (.infrastructure, .kernel), (.infrastructure, .infrastructure), (.infrastructure, nil): true
        case (.frontendKit, .kernel), (.frontendKit, .frontendKit), (.frontendKit, nil): true
        case (.serviceGraph, .kernel), (.serviceGraph, .featureCore), (.serviceGraph, .featureLive), (.serviceGraph, .featureRemote),
            (.serviceGraph, .infrastructure), (.serviceGraph, nil):
            true
        case (.clientRoot, .featureServer), (.clientRoot, .serverRoot): false
        case (.clientRoot, _): true
        case (.serverRoot, .kernel), (.serverRoot, .featureCore), (.serverRoot, .featureServer),
            (.serverRoot, .serviceGraph), (.serverRoot, .infrastructure), (.serverRoot, .serverRoot), (.serverRoot, nil):
            true
        default: false
        }
    }
}

/// Every `import` of a file, nested ones included.
private final class ImportCollector: SyntaxVisitor {
    var found: [ImportDeclSyntax] = []

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        found.append(node)
        return .skipChildren
    }
}
