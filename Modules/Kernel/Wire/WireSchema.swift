/// The shape of a JSON value on the wire, as far as a client or a fuzzer needs to know it: the
/// source of the schemas in the server's OpenAPI document. Kept beside each wire type so the
/// description and the type change together (a test encodes samples against it).
public indirect enum WireSchema: Sendable, Equatable {
    /// A string of `minLength`…`maxLength` characters (`nil`: no bound); `format` and `pattern`
    /// as in JSON Schema.
    case string(minLength: Int? = nil, maxLength: Int? = nil, format: String? = nil, pattern: String? = nil)
    /// One of the given strings.
    case enumeration([String])
    /// A whole number within `range`.
    case integer(ClosedRange<Int>)
    /// `true` or `false`.
    case boolean
    /// A list of at most `maxItems` values.
    case array(WireSchema, maxItems: Int)
    /// An object with these properties; `required` lists the names that must be present.
    case object([(name: String, schema: WireSchema)], required: [String])
    /// An object whose keys are free and whose values all have one shape.
    case map(WireSchema)
    /// `schema`, or `null`.
    case nullable(WireSchema)

    /// An identifier: 1–64 letters, digits, `-`, `_` or `.`.
    public static let identifier = WireSchema.string(minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9._-]+$")
    /// An event cursor, `<epoch>.<position>`.
    public static let cursor = WireSchema.string(minLength: 3, maxLength: 36, pattern: "^[A-Za-z0-9]+[.][0-9]+$")
    /// A time, in whole milliseconds since 1970.
    public static let timestamp = WireSchema.integer(0...Int(Int32.max) * 1_000)

    public static func == (lhs: WireSchema, rhs: WireSchema) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a, b, c, p), .string(d, e, f, q)): a == d && b == e && c == f && p == q
        case let (.enumeration(a), .enumeration(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case (.boolean, .boolean): true
        case let (.array(a, m), .array(b, n)): a == b && m == n
        case let (.object(a, r), .object(b, s)): r == s && a.map(\.name) == b.map(\.name) && a.map(\.schema) == b.map(\.schema)
        case let (.map(a), .map(b)), let (.nullable(a), .nullable(b)): a == b
        default: false
        }
    }

    /// The JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of this shape, as plain values
    /// ready for `JSONSerialization`.
    public var jsonSchema: [String: Any] {
        switch self {
        case let .string(minLength, maxLength, format, pattern):
            var schema: [String: Any] = ["type": "string"]
            if let minLength { schema["minLength"] = minLength }
            if let maxLength { schema["maxLength"] = maxLength }
            if let format { schema["format"] = format }
            if let pattern { schema["pattern"] = pattern }
            return schema
        case let .enumeration(values): return ["type": "string", "enum": values]
        case let .integer(range): return ["type": "integer", "minimum": range.lowerBound, "maximum": range.upperBound]
        case .boolean: return ["type": "boolean"]
        case let .array(element, maxItems): return ["type": "array", "items": element.jsonSchema, "maxItems": maxItems]
        case let .object(properties, required):
            // Unknown fields are ignored, so that older servers and newer clients get along.
            return [
                "type": "object", "required": required,
                "properties": Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.schema.jsonSchema as Any) }),
            ]
        case let .map(value): return ["type": "object", "additionalProperties": value.jsonSchema]
        case let .nullable(inner):
            return ["oneOf": [inner.jsonSchema, ["type": "null"] as [String: Any]]]
        }
    }
}
