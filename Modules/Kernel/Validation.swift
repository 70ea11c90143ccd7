import Foundation

/// The validation rules shared by every backend, so that all of them accept and reject the same
/// input. Every limit is in characters and in UTF-8 bytes: one character can carry any number
/// of combining marks, so a character count alone bounds nothing.
public enum Validation {
    /// Longest display name: characters, and UTF-8 bytes.
    public static let maxDisplayNameLength = 64, maxDisplayNameBytes = 256
    /// Longest status line: characters, and UTF-8 bytes.
    public static let maxStatusLength = 140, maxStatusBytes = 560
    /// Longest group title: characters, and UTF-8 bytes.
    public static let maxTitleLength = 64, maxTitleBytes = 256
    /// The longest reason a report gives: characters and bytes.
    public static let maxReasonLength = 500, maxReasonBytes = 2_000
    /// Longest message text after trimming: characters, and UTF-8 bytes.
    public static let maxMessageLength = 4_000, maxMessageBytes = 16_000
    /// Most files one message carries (Files uploads them, Chat's messages carry them).
    public static let maxFilesPerMessage = 10
    /// Most people one message mentions (`@Name`): past them, more names are plain text.
    public static let maxMentions = 20
    /// Longest email address, in bytes (RFC 5321's path limit).
    public static let maxEmailBytes = 254
    /// Longest people-search query: characters, and UTF-8 bytes.
    public static let maxSearchLength = 64, maxSearchBytes = 256
    /// Shortest password, in characters.
    public static let minPasswordLength = 8
    /// Longest password, in UTF-8 bytes: bcrypt reads no further, so a longer one would be
    /// cut without telling anyone.
    public static let maxPasswordBytes = 72

    /// An email address as it is stored and compared: trimmed, in Unicode's composed form (NFC:
    /// "é" typed as one character or as "e" and an accent are the same address) and lower-cased
    /// (Unicode's full lower case). Not checked; `email(_:)` checks it.
    public static func emailKey(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Text as search words and the names after `@` are compared, the same way in every feature:
    /// whatever its case, accents and width. ASCII text is only lower-cased, without Foundation.
    public static func searchKey(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    /// An email address as `emailKey` spells it, checked for its shape (`local@domain.tld`).
    public static func email(_ raw: String) throws -> String {
        guard raw.utf8.count <= maxEmailBytes + 64 else { throw AppError(.invalidInput, "an email address is at most \(maxEmailBytes) bytes") }
        let email = emailKey(raw)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            email.utf8.count <= maxEmailBytes,
            !email.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.isControl || $0.isInvisibleOrDirectional })
        else { throw AppError(.invalidInput, "\(AppError.quoting(raw)) is not an email address") }
        return email
    }

    /// Trims a display name and checks it is 1–64 characters (256 bytes) of visible text: no
    /// control, invisible or direction-changing characters, so that two names that look the
    /// same are the same; and that it does not end in a mark the app adds (`NameMark`), in any
    /// case or width, so that nobody passes for a bot or a suspended account.
    public static func displayName(_ raw: String) throws -> String {
        let name = try line(raw, field: "display name", allowEmpty: false, maxLength: maxDisplayNameLength, maxBytes: maxDisplayNameBytes)
        if let marks = NameMark.marks(endingThe: name) {
            throw AppError(
                .invalidInput,
                "a display name may not end in \(AppError.quoting(String(NameMark.suffix(marks).dropFirst()))): the app adds that mark itself")
        }
        return name
    }

    /// Trims a status line and checks it is at most 140 characters (560 bytes) of visible text.
    public static func status(_ raw: String) throws -> String {
        try line(raw, field: "status", allowEmpty: true, maxLength: maxStatusLength, maxBytes: maxStatusBytes)
    }

    /// Trims a group title and checks it is 1–64 characters (256 bytes) of visible text.
    public static func title(_ raw: String) throws -> String {
        try line(raw, field: "title", allowEmpty: false, maxLength: maxTitleLength, maxBytes: maxTitleBytes)
    }

    /// Trims a report's reason and checks it is 1–500 characters (2,000 bytes) of visible text:
    /// an admin reads it on their terminal.
    public static func reason(_ raw: String) throws -> String {
        try line(raw, field: "reason", allowEmpty: false, maxLength: maxReasonLength, maxBytes: maxReasonBytes)
    }

    /// A people-search query as every backend matches it: trimmed, lower-cased, not empty, at
    /// most 64 characters (256 bytes), no control characters.
    public static func searchPrefix(_ raw: String) throws -> String {
        let prefix = try line(raw, field: "search query", allowEmpty: false, maxLength: maxSearchLength, maxBytes: maxSearchBytes)
        return prefix.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Checks a new password: 8 characters to 72 bytes, no NUL (bcrypt would end the password
    /// there). Passwords are never trimmed or echoed.
    public static func password(_ password: String) throws {
        guard password.count >= minPasswordLength else {
            throw AppError(.invalidInput, "password must be at least \(minPasswordLength) characters")
        }
        guard password.utf8.count <= maxPasswordBytes else {
            throw AppError(.invalidInput, "password must be at most \(maxPasswordBytes) bytes (bcrypt reads no further)")
        }
        guard !password.utf8.contains(0) else { throw AppError(.invalidInput, "password must not contain a NUL character") }
    }

    /// Trims message text and checks it is 1–4,000 characters and at most 16,000 bytes; line
    /// breaks (CR LF becomes LF) and tabs are allowed, other control characters are not.
    public static func messageText(_ raw: String) throws -> String {
        guard raw.utf8.count <= maxMessageBytes * 2 else { throw tooLong("message", bytes: raw.utf8.count, limit: maxMessageBytes) }
        let unified = raw.utf8.contains(UInt8(ascii: "\r")) ? raw.replacingOccurrences(of: "\r\n", with: "\n") : raw
        let text = trimmed(unified) { $0.properties.isWhitespace || $0 == zeroWidthSpace }
        guard !text.isEmpty else { throw AppError(.invalidInput, "message is empty") }
        guard text.utf8.count <= maxMessageBytes else { throw tooLong("message", bytes: text.utf8.count, limit: maxMessageBytes) }
        guard text.count <= maxMessageLength else {
            throw AppError(.invalidInput, "message is \(text.count) characters; the limit is \(maxMessageLength)")
        }
        guard !text.unicodeScalars.contains(where: { $0.isControl && $0 != "\n" && $0 != "\t" }) else {
            throw AppError(.invalidInput, "message contains control characters")
        }
        return text
    }

    /// Most bytes a reaction's emoji may take (the longest family and flag sequences fit).
    public static let maxReactionBytes = 32

    /// Checks a reaction: one emoji, that is one grapheme cluster drawn as an emoji (an emoji
    /// presentation character, or one with the emoji variation selector), at most 32 bytes, with
    /// no control, direction-changing or blank character.
    public static func reaction(_ raw: String) throws -> String {
        let refusal = AppError(.invalidInput, "a reaction is one emoji, at most \(maxReactionBytes) bytes")
        guard raw.utf8.count <= maxReactionBytes, raw.count == 1, let scalars = raw.first?.unicodeScalars else { throw refusal }
        guard scalars.contains(where: { $0.properties.isEmojiPresentation || $0 == "\u{FE0F}" }),
            !scalars.contains(where: { $0.isControl || $0.isDirectionalOverride || $0.properties.isWhitespace || $0.isLookAlikeSpace })
        else {
            throw refusal
        }
        return raw
    }

    /// Checks an identifier given from outside (a path, a script's `--id`): 1–64 ASCII letters,
    /// digits, `-`, `_` or `.`, so it is safe in a URL, a file name and a terminal.
    /// - Throws: `.invalidInput` naming `field`.
    public static func identifier<Tag>(_ raw: String, field: String) throws -> Identifier<Tag> {
        guard (1...maxIdentifierBytes).contains(raw.utf8.count),
            raw.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || [0x2D, 0x2E, 0x5F].contains(byte)
            })
        else {
            throw AppError(.invalidInput, "\(field) \(AppError.quoting(raw)) is not an id: 1–\(maxIdentifierBytes) letters, digits, '-', '_' or '.'")
        }
        return Identifier(raw)
    }

    /// Longest identifier, in bytes.
    public static let maxIdentifierBytes = 64

    private static func line(_ raw: String, field: String, allowEmpty: Bool, maxLength: Int, maxBytes: Int) throws -> String {
        guard raw.utf8.count <= maxBytes * 2 else { throw tooLong(field, bytes: raw.utf8.count, limit: maxBytes) }
        let value = trimmed(raw) { $0.properties.generalCategory == .spaceSeparator || $0 == "\t" || $0 == zeroWidthSpace }
        if value.isEmpty && !allowEmpty { throw AppError(.invalidInput, "\(field) is empty") }
        guard value.utf8.count <= maxBytes else { throw tooLong(field, bytes: value.utf8.count, limit: maxBytes) }
        guard value.count <= maxLength else {
            throw AppError(.invalidInput, "\(field) is \(value.count) characters; the limit is \(maxLength)")
        }
        guard !value.unicodeScalars.contains(where: \.isControl) else {
            throw AppError(.invalidInput, "\(field) contains control characters")
        }
        guard !value.unicodeScalars.contains(where: { $0.isInvisibleOrDirectional || $0.isLookAlikeSpace }) else {
            throw AppError(.invalidInput, "\(field) contains invisible, blank or direction-changing characters")
        }
        // "Bob  Smith" and "Bob Smith" look alike: one space between words.
        return value.split(separator: " ").joined(separator: " ")
    }

    /// `text` without the scalars `blank` matches at either end: Foundation's
    /// `trimmingCharacters(in:)` for the same set (`.whitespacesAndNewlines` is White_Space,
    /// `.whitespaces` the space separators and tab, each with U+200B, a space in Unicode's
    /// early versions) without its trip through `NSString`, which cost a local send a twentieth
    /// of its time.
    static func trimmed(_ text: String, dropping blank: (Unicode.Scalar) -> Bool) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) }) else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// U+200B ZERO WIDTH SPACE, which Foundation still trims as a space.
    private static let zeroWidthSpace: Unicode.Scalar = "\u{200B}"

    private static func tooLong(_ field: String, bytes: Int, limit: Int) -> AppError {
        AppError(.invalidInput, "\(field) is \(bytes) bytes; the limit is \(limit)")
    }
}

/// A mark the app adds in brackets after a name as others see it (`ProfileRules.shownName`):
/// "Ada (bot)", "Ada (suspended)". No display name may end in one (`Validation.displayName`).
public enum NameMark: String, Sendable, CaseIterable {
    case bot, suspended

    /// `marks` as shown after a name: " (bot)", " (bot, suspended)"; "" for none.
    public static func suffix(_ marks: [NameMark]) -> String {
        marks.isEmpty ? "" : " (" + marks.map(\.rawValue).joined(separator: ", ") + ")"
    }

    /// The marks `name`'s last brackets hold, if they hold nothing else: "(Bot)", "（ｂｏｔ）" and
    /// "(suspended, bot)" count, "(robot)" does not.
    static func marks(endingThe name: String) -> [NameMark]? {
        let folded = Validation.searchKey(name)
        guard folded.hasSuffix(")"), let open = folded.lastIndex(of: "(") else { return nil }
        let words = folded[folded.index(after: open)..<folded.index(before: folded.endIndex)].split { !$0.isLetter }
        let marks = words.map { NameMark(rawValue: String($0)) }
        guard !marks.isEmpty, !marks.contains(nil) else { return nil }
        return marks.compactMap { $0 }
    }
}
