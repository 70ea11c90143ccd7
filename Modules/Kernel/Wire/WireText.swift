/// JSON text written field by field, for the frames a server sends most (a message's event, a
/// reaction's, a send's reply), where `JSONEncoder` was the largest cost of a message. It writes exactly what
/// `WireFormat.encoder()` writes for the same value, with the same escapes, as long as callers
/// give each object's keys in sorted order; the tests of each such frame compare the two.
public struct WireText: Sendable {
    /// The UTF-8 text written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty text, with room for a message's frame.
    public init() {
        bytes.reserveCapacity(512)
    }

    /// Writes an object whose fields `fields` writes.
    public mutating func object(_ fields: (inout WireText) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        fields(&self)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes the field `key` with the string `value`.
    public mutating func field(_ key: StaticString, _ value: String) {
        self.key(key)
        string(value)
    }

    /// Writes the field `key` with the integer `value`.
    public mutating func field(_ key: StaticString, _ value: Int64) {
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes the field `key` with the boolean `value`.
    public mutating func field(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes the field `key` with an object whose fields `fields` writes.
    public mutating func field(_ key: StaticString, object fields: (inout WireText) -> Void) {
        self.key(key)
        object(fields)
    }

    /// Writes the field `key` with an object of `map`'s entries, whose keys are not known in
    /// advance (emoji), in the order the encoder sorts keys (by their UTF-8 bytes), each value
    /// written by `value`.
    public mutating func field<Value>(_ key: StaticString, map: [String: Value], _ value: (inout WireText, Value) -> Void) {
        self.key(key)
        self.map(map, value)
    }

    /// Writes an object of `map`'s entries, as `field(_:map:_:)` writes a field's.
    public mutating func map<Value>(_ map: [String: Value], _ value: (inout WireText, Value) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        for (index, entry) in map.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(entry.key)
            bytes.append(UInt8(ascii: ":"))
            value(&self, entry.value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes the integer `value`, as a value of a `map` field.
    public mutating func value(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes an array of the strings `values`, as a value of a `map` field.
    public mutating func value(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func key(_ name: StaticString) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// `value` quoted, with `"`, `\` and the control characters escaped as `JSONEncoder` does.
    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(contentsOf: [Hex.digits[Int(byte >> 4)], Hex.digits[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
