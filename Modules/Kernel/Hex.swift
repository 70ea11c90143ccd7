/// Bytes as lowercase hexadecimal, two digits a byte: the one way every place writes them (a
/// session token's digest, a control character's JSON escape, a conversation's term in the
/// search index).
public enum Hex {
    /// The digits, by value.
    public static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as hexadecimal text.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
