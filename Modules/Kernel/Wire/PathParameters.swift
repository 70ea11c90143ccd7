/// The typed parameters of endpoint paths: one kind per shape of path, each filling its
/// `{name}` segments on the client and read back from a request's on the server, so that no
/// call can leave one out or misspell it.
public enum PathParameters {
    /// What every kind does.
    public protocol Kind: Sendable {
        /// The names of its `{name}` segments, in the template's order.
        static var names: [String] { get }
        /// Its values, in the order of `names`.
        var values: [String] { get }
        /// Reads it from a request's path, where `value(name)` is the raw segment.
        /// - Throws: `.invalidInput` for a value that is not an identifier.
        init(reading value: (String) throws -> String) throws
    }

    /// A path with no parameters.
    public struct None: Kind {
        public static let names: [String] = []
        public var values: [String] { [] }
        /// The only value.
        public init() {}
        public init(reading value: (String) throws -> String) {}
    }

    /// `…/{conversation}/…`
    public struct Conversation: Kind {
        public static let names = ["conversation"]
        /// The conversation.
        public let conversation: ConversationID
        public var values: [String] { [conversation.rawValue] }
        /// The path of `conversation`.
        public init(conversation: ConversationID) { self.conversation = conversation }
        public init(reading value: (String) throws -> String) throws {
            conversation = try Validation.identifier(try value("conversation"), field: "conversation")
        }
    }

    /// `…/{conversation}/…/{message}`
    public struct ConversationMessage: Kind {
        public static let names = ["conversation", "message"]
        /// The conversation.
        public let conversation: ConversationID
        /// The message in it.
        public let message: MessageID
        public var values: [String] { [conversation.rawValue, message.rawValue] }
        /// The path of `message` in `conversation`.
        public init(conversation: ConversationID, message: MessageID) {
            self.conversation = conversation
            self.message = message
        }
        public init(reading value: (String) throws -> String) throws {
            conversation = try Validation.identifier(try value("conversation"), field: "conversation")
            message = try Validation.identifier(try value("message"), field: "message")
        }
    }

    /// `…/{user}`
    public struct User: Kind {
        public static let names = ["user"]
        /// The user.
        public let user: UserID
        public var values: [String] { [user.rawValue] }
        /// The path of `user`.
        public init(user: UserID) { self.user = user }
        public init(reading value: (String) throws -> String) throws {
            user = try Validation.identifier(try value("user"), field: "user")
        }
    }

    /// `…/{file}…`
    public struct File: Kind {
        public static let names = ["file"]
        /// The file.
        public let file: FileID
        public var values: [String] { [file.rawValue] }
        /// The path of `file`.
        public init(file: FileID) { self.file = file }
        public init(reading value: (String) throws -> String) throws {
            file = try Validation.identifier(try value("file"), field: "file")
        }
    }
}
