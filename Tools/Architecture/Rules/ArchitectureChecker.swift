import ArchitectureModel
import Foundation

/// Checks a package's sources and dependency graph against the architecture rules.
public struct ArchitectureChecker {
    /// The package's targets.
    public let graph: PackageGraph
    /// The sources of the targets the rules apply to.
    public let files: [SourceFile]
    /// `Package.swift`'s text, to place reports about declared dependencies.
    public let manifest: String

    /// Creates a checker over already read sources (tests pass fixtures).
    public init(graph: PackageGraph, files: [SourceFile], manifest: String = "") {
        self.graph = graph
        self.files = files
        self.manifest = manifest
    }

    /// Reads the package at `root`: its graph, its manifest and the sources of every checked target.
    public static func load(packageAt root: URL) async throws -> ArchitectureChecker {
        let graph = try await PackageGraph.describe(packageAt: root)
        let files = try graph.targets.filter(\.role.isChecked).flatMap { target in
            try target.sourcePaths.map { path in
                SourceFile(path: path, text: try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8), target: target)
            }
        }
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        return ArchitectureChecker(graph: graph, files: files, manifest: manifest)
    }

    /// Every violation, sorted by place, exemptions applied.
    public func violations() -> [Violation] {
        let imports = ImportRules(graph: graph)
        let perFile = files.flatMap { file in
            imports.check(file) + ViewModelRules().check(file) + NamingRules().check(file)
        }
        let found =
            perFile + imports.checkDeclaredDependencies(manifest: manifest) + ServiceRules(files: files).check()
            + LayoutRules(files: files).check()
        return Exemptions.apply(to: found, files: files).sorted()
    }
}
