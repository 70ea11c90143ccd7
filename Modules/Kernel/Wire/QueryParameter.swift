/// A query parameter an endpoint reads.
public struct QueryParameter: Sendable {
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
}
