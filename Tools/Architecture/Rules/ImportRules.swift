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

    /// Violations of the `import` declarations of `file`.
    func check(_ file: SourceFile) -> [Violation] {
        file.tree.statements.compactMap { statement -> Violation? in
            guard case .decl(let decl) = statement.item, let imported = decl.as(ImportDeclSyntax.self),
                  let module = imported.path.first?.name.text,
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

    /// The rule `importer` breaks by importing `module`, if any.
    func problem(importer: PackageTarget, imports module: String) -> (RuleID, String)? {
        let role = importer.role
        let importedRole = graph.role(of: module)
        if let feature = role.feature, let other = importedRole?.feature, other != feature {
            return (.crossFeature, "\(feature) imports \(module) of feature \(other); features meet only through ports and the composition root")
        }
        if case .featureLive = importedRole, role != .compositionRoot, role != .tooling {
            return (.liveImports, "only composition roots (Modules/Container, Modules/App, Apps/) import live targets like \(module)")
        }
        switch role {
        case .featureCore where importedRole != .kernel && !Self.toolchainModules.contains(module):
            return (.coreImports, "a feature core imports only Kernel and the standard library, not \(module)")
        case .featureViews(let feature) where !viewMayImport(module, role: importedRole, feature: feature):
            return (.viewImports, "views import only Kernel, their feature core, the front-end kits and ArgumentParser, not \(module)")
        default:
            return nil
        }
    }

    private func viewMayImport(_ module: String, role: ModuleRole?, feature: String) -> Bool {
        switch role {
        case .kernel, .frontendKit, .featureCore(feature): true
        case nil: Self.toolchainModules.contains(module) || Self.viewPackages.contains(module)
        default: false
        }
    }
}
