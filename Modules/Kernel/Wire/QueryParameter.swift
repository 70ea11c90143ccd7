/// A query parameter an endpoint reads. Each API declares its own as constants, which clients
/// and routes name (never a string of their own); two parameters are the same when their names are.
public struct QueryParameter: Sendable, Hashable {
    /// Its name.
    public let name: String
    /// The shape of its value.
    public let schema: WireSchema
    /// Whether a request must carry it.
    public let required: Bool
    /// What it means.
    public let summary: String

    /// Declares a parameter.
    public init(_ name: String, _ schema: WireSchema, required: Bool = false, _ summary: String) {
        self.name = name
        self.schema = schema
        self.required = required
        self.summary = summary
    }

    public static func == (lhs: QueryParameter, rhs: QueryParameter) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
