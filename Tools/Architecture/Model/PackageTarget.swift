/// One target of the package, as `swift package describe --type json` reports it.
public struct PackageTarget: Decodable, Equatable, Sendable {
    /// The module name.
    public let name: String
    /// Its folder, relative to the package root.
    public let path: String
    /// Its source files, relative to `path`.
    public let sources: [String]
    /// Targets of this package it depends on.
    public let targetDependencies: [String]
    /// Products of other packages it depends on.
    public let productDependencies: [String]

    /// Creates a target (tests build graphs by hand).
    public init(
        name: String, path: String, sources: [String] = [],
        targetDependencies: [String] = [], productDependencies: [String] = []
    ) {
        self.name = name
        self.path = path
        self.sources = sources
        self.targetDependencies = targetDependencies
        self.productDependencies = productDependencies
    }

    /// Where it sits in the architecture.
    public var role: ModuleRole { ModuleRole(path: path) }

    /// Its Swift source files, relative to the package root: the rules read Swift; a C target's
    /// files (PictureCodecs) are not theirs to judge.
    public var sourcePaths: [String] { sources.filter { $0.hasSuffix(".swift") }.map { "\(path)/\($0)" } }

    enum CodingKeys: String, CodingKey {
        case name, path, sources
        case targetDependencies = "target_dependencies"
        case productDependencies = "product_dependencies"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        path = try container.decode(String.self, forKey: .path)
        sources = try container.decodeIfPresent([String].self, forKey: .sources) ?? []
        targetDependencies = try container.decodeIfPresent([String].self, forKey: .targetDependencies) ?? []
        productDependencies = try container.decodeIfPresent([String].self, forKey: .productDependencies) ?? []
    }
}
