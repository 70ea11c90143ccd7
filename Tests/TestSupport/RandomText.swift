/// Random Unicode text from a fixed seed (SplitMix64), for fuzz-style tests that are the same on
/// every run: a failure names its seed and case, and reproduces.
public struct RandomText {
    private var state: UInt64

    /// Scalar ranges drawn from: plain ASCII most often, then everything a hostile sender
    /// reaches for — C0/C1 controls, ESC, CR, bidi overrides and isolates, zero-width and other
    /// invisible characters, combining marks, emoji and their joiners, CJK, Arabic.
    public static let ranges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x20...0x7E, 0x20...0x7E, 0x00...0x1F, 0x7F...0x9F, 0x1B...0x1B, 0x0D...0x0D, 0x0A...0x0A,
        0x202A...0x202E, 0x2066...0x2069, 0x200B...0x200F, 0x2060...0x2064, 0xFEFF...0xFEFF, 0x0300...0x036F,
        0x1F300...0x1F6FF, 0x200D...0x200D, 0x4E00...0x4E50, 0x0600...0x06FF, 0xE0000...0xE007F,
    ]

    /// Creates a generator; the same seed gives the same text.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A string of up to `maxScalars` scalars.
    public mutating func string(maxScalars: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(in: 0...maxScalars) {
            let range = Self.ranges[int(in: 0...(Self.ranges.count - 1))]
            let value = range.lowerBound + UInt32(next() % UInt64(range.upperBound - range.lowerBound + 1))
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}

extension RandomText {
    /// Text of exactly `bytes` UTF-8 bytes (at least 8) in at most `bytes / 4 + 2` characters:
    /// four-byte emoji, one eight-byte character (thumbs up with a skin tone), then ASCII; for
    /// byte limits tested below their character limits.
    public static func dense(bytes: Int) -> String {
        let emoji = (bytes - 8) / 4
        return String(repeating: "😀", count: emoji) + "👍🏽" + String(repeating: "a", count: bytes - 8 - emoji * 4)
    }
}
