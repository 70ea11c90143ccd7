import Foundation

/// The seeds' success metrics, measured on a package: files per feature, lines per view model,
/// and whether each feature core builds without any other package.
public struct ArchitectureMetrics: Sendable {
    /// One feature's figures.
    public struct Feature: Sendable, Equatable {
        public let name: String
        /// Source files per part (`Core`, `Views`, `Live`).
        public let files: [String: Int]
        /// Lines of each view model file, by type name.
        public let viewModelLines: [String: Int]
        /// Targets the core needs, all of this package.
        public let coreClosure: [String]
        /// Other packages' products the core needs, directly or not (none is the target).
        public let corePackages: [String]

        /// All its source files.
        public var fileCount: Int { files.values.reduce(0, +) }
    }

    /// One target's size.
    public struct TargetSize: Sendable, Equatable {
        public let name: String
        public let files: Int
        public let lines: Int
        /// Files of `smallFileLines` lines or fewer: types that could live beside the one they serve.
        public let smallFiles: Int
    }

    /// A file this short is counted as small.
    public static let smallFileLines = 15

    /// Most lines a view model may have (the seeds' metric; `arch-check` enforces it too).
    public static let viewModelLimit = 300

    /// Per feature, by name.
    public let features: [Feature]
    /// Per target, in the package's order.
    public let targetSizes: [TargetSize]

    /// Measures `graph`, reading view-model files under `root`.
    public init(graph: PackageGraph, root: URL) throws {
        let byFeature = Dictionary(grouping: graph.targets.filter { $0.role.feature != nil }) { $0.role.feature! }
        features = try byFeature.keys.sorted().map { name in
            let targets = byFeature[name]!
            var files: [String: Int] = [:]
            var viewModels: [String: Int] = [:]
            for target in targets {
                files[String(target.path.split(separator: "/").last!), default: 0] += target.sources.count
                for path in target.sourcePaths where path.hasSuffix("ViewModel.swift") {
                    let text = try Data(contentsOf: root.appendingPathComponent(path))
                    let name = path.split(separator: "/").last!.dropLast(6)
                    viewModels[String(name)] = text.count { $0 == UInt8(ascii: "\n") }
                }
            }
            let core = targets.first { $0.role == .featureCore(name) }
            let closure = core.map { graph.closure(of: $0.name).sorted() } ?? []
            let packages = ([core?.name].compactMap { $0 } + closure).flatMap { graph.target(named: $0)?.productDependencies ?? [] }
            return Feature(name: name, files: files, viewModelLines: viewModels, coreClosure: closure, corePackages: Array(Set(packages)).sorted())
        }
        targetSizes = try graph.targets.sorted { $0.name < $1.name }.map { target in
            let lines = try target.sourcePaths.map { path in
                try Data(contentsOf: root.appendingPathComponent(path)).count { $0 == UInt8(ascii: "\n") }
            }
            return TargetSize(name: target.name, files: lines.count, lines: lines.reduce(0, +), smallFiles: lines.count { $0 <= Self.smallFileLines })
        }
    }

    /// The largest view model, if any.
    public var largestViewModel: (name: String, lines: Int)? {
        features.flatMap { $0.viewModelLines.map { (name: $0.key, lines: $0.value) } }.max { $0.lines < $1.lines }
    }
}
