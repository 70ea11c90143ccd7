/// The module dependency graph of `Modules/` and `Apps/`, as text and as a Mermaid diagram.
public struct DependencyDiagram: Sendable {
    /// Edges: each checked target and what it depends on (targets, then other packages' products).
    public let edges: [(target: String, dependencies: [String])]

    /// The edges of `graph`'s checked targets, in the order `swift package describe` lists them.
    public init(graph: PackageGraph) {
        edges = graph.targets.filter(\.role.isChecked).map { target in
            (target.name, target.targetDependencies + target.productDependencies)
        }
    }

    /// One line per target: `Chat → Kernel`.
    public var text: [String] {
        edges.map { "\($0.target) → \($0.dependencies.isEmpty ? "(nothing)" : $0.dependencies.joined(separator: ", "))" }
    }

    /// A Mermaid `graph TD` block, for the README.
    public var mermaid: [String] {
        ["```mermaid", "graph TD"] + edges.flatMap { edge in edge.dependencies.map { "  \(node(edge.target)) --> \(node($0))" } } + ["```"]
    }

    private func node(_ name: String) -> String { name.replacingOccurrences(of: "-", with: "_") }
}
