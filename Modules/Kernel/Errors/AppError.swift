/// The one error type a user ever sees: a failure class and a message written for people.
///
/// Services throw it for every expected failure; front ends map `kind` to exit codes and
/// show `message` as it is.
public struct AppError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Failure classes. Each has its own CLI exit code.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// The command line or a configuration value is wrong.
        case usage
        /// Input breaks a validation rule (too long, empty, bad characters…).
        case invalidInput
        /// What was sent is bigger than allowed (a file past `files.maxBytes`), or would take its
        /// sender past their storage quota: the same exit code as bad input, HTTP 413.
        case tooLarge
        /// The user, conversation or message does not exist.
        case notFound
        /// The request clashes with existing data (e.g. the email is taken).
        case conflict
        /// There is no signed-in user, or the session has ended.
        case notSignedIn
        /// Email or password is wrong.
        case invalidCredentials
        /// The signed-in user may not do this (e.g. not a member of the conversation).
        case forbidden
        /// An attempt limit (password checks, sign-ups, sockets) or a person's budget (messages,
        /// new conversations, renames, look-ups) is spent for now; try again later.
        case rateLimited
        /// What a cursor names is not in this store (another store's cursor, or one it no longer
        /// keeps): the reader starts again without it and reloads, rather than retrying.
        case gone
        /// The backend cannot be reached or opened.
        case unavailable
        /// A bug or an unexpected failure.
        case `internal`
    }

    /// The failure class.
    public let kind: Kind
    /// A one-line explanation for people.
    public let message: String

    /// Creates an error of `kind` with a message for people.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// Maps any error to an `AppError`; errors that are not ours become `.internal`.
    public init(_ error: any Error) {
        if let error = error as? AppError {
            self = error
        } else {
            self.init(.internal, "unexpected error: \(error)")
        }
    }

    /// No conversation has this id (the same words from every feature that looks one up).
    public static func noConversation(_ id: ConversationID) -> AppError { AppError(.notFound, "no conversation \(quoting(id.rawValue))") }

    /// Longest piece of someone's input an error message repeats, in characters.
    public static let maxQuotedLength = 40

    /// `text` in quotes for an error message, cut to 40 characters (and as many bytes as
    /// 40 plain characters take, four each) with an ellipsis, so a message stays one short line
    /// whatever was typed.
    public static func quoting(_ text: String) -> String {
        var cut = Substring(text.prefix(maxQuotedLength))
        while cut.utf8.count > maxQuotedLength * 4 { cut = cut.dropLast() }
        return "'" + cut + (cut.count < text.count ? "…" : "") + "'"
    }

    /// The session is missing, revoked or has expired.
    public static let notSignedIn = AppError(.notSignedIn, "not signed in; run `messageai login` or `messageai signup`")
}
