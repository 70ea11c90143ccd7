/// New session tokens: 256 bits from the system's cryptographically secure generator
/// (`getrandom` on Linux), as 64 hexadecimal characters.
public enum SessionToken {
    /// A new random token.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
