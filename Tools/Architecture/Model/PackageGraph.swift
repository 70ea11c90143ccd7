import Foundation

/// The package's targets and their dependencies.
public struct PackageGraph: Decodable, Sendable {
    /// Every target, in the order `swift package describe` lists them.
    public let targets: [PackageTarget]

    /// Creates a graph (tests build graphs by hand).
    public init(targets: [PackageTarget]) { self.targets = targets }

    /// The target named `name`, if the package has one.
    public func target(named name: String) -> PackageTarget? { targets.first { $0.name == name } }

    /// The role of module `name`: a target's, or `nil` for a module from outside the package.
    public func role(of name: String) -> ModuleRole? { target(named: name)?.role }

    /// Every target `name` depends on, directly or not (target names only).
    public func closure(of name: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = target(named: name)?.targetDependencies ?? []
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += target(named: next)?.targetDependencies ?? []
        }
        return seen
    }

    /// Reads the graph of the package at `root` with `swift package describe --type json`.
    /// - Throws: `ToolError` when the command fails or prints something else than JSON.
    public static func describe(packageAt root: URL) async throws -> PackageGraph {
        let output = try await ToolProcess.run(["swift", "package", "describe", "--type", "json"], in: root)
        // SwiftPM may print resolution progress before the JSON.
        guard let start = output.firstIndex(of: UInt8(ascii: "{")) else {
            throw ToolError("`swift package describe` printed no JSON")
        }
        return try JSONDecoder().decode(PackageGraph.self, from: output[start...])
    }
}
