extension Unicode.Scalar {
    /// C0 and C1 control characters and DEL (line breaks, tab and escape included): Unicode's
    /// category Cc, exactly U+0000–001F and U+007F–009F (a range check; the category look-up
    /// was a measurable share of a send).
    public var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }

    /// Characters that change how the text around them is ordered or that show nothing: the
    /// bidirectional marks, embeddings, overrides and isolates, zero-width spaces and joiners,
    /// and the other default-ignorable format characters. Two names differing only by these
    /// look the same, so names refuse them and front ends show them as visible codes. (The
    /// emoji presentation selectors U+FE0E and U+FE0F are not among them.)
    public var isInvisibleOrDirectional: Bool {
        switch value {
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E,
            0x2060...0x206F, 0x3164, 0xFE00...0xFE0D, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3,
            0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            true
        default:
            false
        }
    }

    /// Characters that show as a blank but are not the plain space: no-break and other-width
    /// spaces, line and paragraph separators, the Ogham and ideographic spaces, the blank Braille
    /// pattern. Names refuse them, so that a trailing one cannot tell two names apart.
    public var isLookAlikeSpace: Bool {
        (properties.isWhitespace && self != " ") || value == 0x2800 || value == 0x3164
    }

    /// The bidirectional embeddings, overrides and isolates (U+202A–202E, U+2066–2069): they
    /// reorder the rest of a line, including text that is not theirs, so front ends never
    /// write them raw, not even inside a message.
    public var isDirectionalOverride: Bool { (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) }
}
