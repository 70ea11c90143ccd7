import Foundation

/// The validation rules shared by every backend, so that all of them accept and reject the same input.
public enum Validation {
    /// Longest display name, in characters.
    public static let maxDisplayNameLength = 64
    /// Longest status line, in characters.
    public static let maxStatusLength = 140
    /// Shortest password, in characters.
    public static let minPasswordLength = 8
    /// Longest message text after trimming, in characters.
    public static let maxMessageLength = 4_000
    /// Longest group title, in characters.
    public static let maxTitleLength = 64

    /// Trims and lower-cases an email address and checks its shape (`local@domain.tld`).
    public static func email(_ raw: String) throws -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !email.contains(where: { $0.isWhitespace || $0.isControlCharacter })
        else { throw AppError(.invalidInput, "'\(raw)' is not an email address") }
        return email
    }

    /// Trims a display name and checks it is 1–64 characters with no control characters.
    public static func displayName(_ raw: String) throws -> String {
        try line(raw, field: "display name", allowEmpty: false, maxLength: maxDisplayNameLength)
    }

    /// Trims a status line and checks it is at most 140 characters with no control characters.
    public static func status(_ raw: String) throws -> String {
        try line(raw, field: "status", allowEmpty: true, maxLength: maxStatusLength)
    }

    /// Trims a group title and checks it is 1–64 characters with no control characters.
    public static func title(_ raw: String) throws -> String {
        try line(raw, field: "title", allowEmpty: false, maxLength: maxTitleLength)
    }

    /// A people-search query as both backends match it: trimmed, lower-cased, not empty.
    public static func searchPrefix(_ raw: String) throws -> String {
        let prefix = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard !prefix.isEmpty else { throw AppError(.invalidInput, "search query is empty") }
        return prefix
    }

    /// Checks a password is long enough. Passwords are never trimmed or echoed.
    public static func password(_ password: String) throws {
        guard password.count >= minPasswordLength else {
            throw AppError(.invalidInput, "password must be at least \(minPasswordLength) characters")
        }
    }

    /// Trims message text and checks it is 1–4,000 characters; newlines and tabs are allowed,
    /// other control characters are not.
    public static func messageText(_ raw: String) throws -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw AppError(.invalidInput, "message is empty") }
        guard text.count <= maxMessageLength else {
            throw AppError(.invalidInput, "message is \(text.count) characters; the limit is \(maxMessageLength)")
        }
        guard !text.contains(where: { $0.isControlCharacter && $0 != "\n" && $0 != "\t" && $0 != "\r\n" }) else {
            throw AppError(.invalidInput, "message contains control characters")
        }
        return text
    }

    private static func line(_ raw: String, field: String, allowEmpty: Bool, maxLength: Int) throws -> String {
        let value = raw.trimmingCharacters(in: .whitespaces)
        if value.isEmpty && !allowEmpty { throw AppError(.invalidInput, "\(field) is empty") }
        guard value.count <= maxLength else {
            throw AppError(.invalidInput, "\(field) is \(value.count) characters; the limit is \(maxLength)")
        }
        guard !value.contains(where: \.isControlCharacter) else {
            throw AppError(.invalidInput, "\(field) contains control characters")
        }
        return value
    }
}

extension Character {
    /// True for C0/C1 control characters and DEL (line breaks included): Unicode's category Cc,
    /// which is exactly U+0000–001F and U+007F–009F (a range check; the category look-up was a
    /// measurable share of a send).
    var isControlCharacter: Bool {
        unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
