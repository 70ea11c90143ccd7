import ArchitectureModel
import SwiftSyntax

/// Who may import whom: checked on every `import` in the sources and every dependency the
/// package declares.
struct ImportRules {
    /// Modules of the toolchain a feature core may use beside the kernel.
    static let toolchainModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "Observation", "Synchronization", "Dispatch", "_Concurrency",
    ]
    /// External modules views may use: argument parsing for their commands.
    static let viewPackages: Set<String> = ["ArgumentParser"]

    let graph: PackageGraph

    /// Violations of the `import` declarations of `file`, wherever they stand (inside `#if` too).
    func check(_ file: SourceFile) -> [Violation] {
        let imports = ImportCollector(viewMode: .sourceAccurate)
        imports.walk(file.tree)
        return imports.found.compactMap { imported in
            guard let module = imported.path.first?.name.text,
                  let (rule, message) = problem(importer: file.target, imports: module) else { return nil }
            return file.violation(rule, at: imported, message)
        }
    }

    /// Violations of the dependencies `Package.swift` declares; reported at the line naming the
    /// target in `manifest` (line 1 when a loop generates its name).
    func checkDeclaredDependencies(manifest: String) -> [Violation] {
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
        return graph.targets.flatMap { target in
            (target.targetDependencies + target.productDependencies).compactMap { dependency -> Violation? in
                guard let (rule, message) = problem(importer: target, imports: dependency) else { return nil }
                let line = (lines.firstIndex { $0.contains("\"\(target.name)\"") } ?? 0) + 1
                return Violation(path: "Package.swift", line: line, rule: rule,
                                 message: "target '\(target.name)' depends on '\(dependency)': \(message)")
            }
        }
    }

    /// The rule `importer` breaks by importing `module`, if any. Every role has its list of
    /// what it may depend on, so a new kind of target is checked by default.
    func problem(importer: PackageTarget, imports module: String) -> (RuleID, String)? {
        let role = importer.role
        let importedRole = graph.role(of: module)
        if let feature = role.feature, let other = importedRole?.feature, other != feature {
            return (.crossFeature, "\(feature) imports \(module) of feature \(other); features meet only through ports and the composition root")
        }
        if case .featureLive = importedRole, role != .compositionRoot, role != .tooling {
            return (.liveImports, "only composition roots (Modules/Container, Modules/App, Apps/) import live targets like \(module)")
        }
        guard !Self.toolchainModules.contains(module), !mayImport(role, importedRole, module) else { return nil }
        switch role {
        case .featureCore:
            return (.coreImports, "a feature core imports only Kernel and the standard library, not \(module)")
        case .featureViews:
            return (.viewImports, "views import only Kernel, their feature core, the front-end kits and ArgumentParser, not \(module)")
        case .kernel:
            return (.layerImports, "the kernel imports only the standard library, not \(module)")
        case .featureLive:
            return (.layerImports, "a live target imports only its feature core, Kernel, infrastructure and other packages, not \(module)")
        case .infrastructure, .frontendKit:
            return (.layerImports, "shared infrastructure and front-end kits import only Kernel, their own layer and other packages, not \(module)")
        case .compositionRoot, .tooling:
            return nil
        }
    }

    /// What each role may depend on beside the toolchain (`nil`: another package's module).
    private func mayImport(_ role: ModuleRole, _ imported: ModuleRole?, _ module: String) -> Bool {
        switch (role, imported) {
        case (.compositionRoot, _), (.tooling, _): true
        case (.featureCore, .kernel): true
        case (.featureViews(let feature), .featureCore(let core)), (.featureLive(let feature), .featureCore(let core)): feature == core
        case (.featureViews, .kernel), (.featureViews, .frontendKit): true
        case (.featureViews, nil): Self.viewPackages.contains(module)
        case (.featureLive, .kernel), (.featureLive, .infrastructure), (.featureLive, nil): true
        case (.infrastructure, .kernel), (.infrastructure, .infrastructure), (.infrastructure, nil): true
        case (.frontendKit, .kernel), (.frontendKit, .frontendKit), (.frontendKit, nil): true
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
