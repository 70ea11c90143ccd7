import Kernel
import TestSupport
import Testing

@Suite("Validation", .timeLimit(.minutes(1)))
struct ValidationTests {
    @Test(
        "emails are trimmed, composed (NFC) and lower-cased",
        arguments: [
            ("  Ada@Example.COM ", "ada@example.com"), ("x@y.io", "x@y.io"), ("jose\u{301}@example.com", "jos\u{E9}@example.com"),
            ("JOS\u{C9}@Example.com", "jos\u{E9}@example.com"), ("Jose\u{301}@Example.com\t", "jos\u{E9}@example.com"),
        ])
    func emailNormalised(raw: String, expected: String) throws {
        #expect(try Validation.email(raw) == expected)
    }

    @Test("malformed emails are refused", arguments: ["", "ada", "ada@", "@example.com", "ada@example", "a da@x.io", "ada@.io"])
    func emailRefused(raw: String) {
        #expect(throws: AppError.self) { try Validation.email(raw) }
    }

    @Test("display names are 1–64 characters without control characters")
    func displayNames() throws {
        #expect(try Validation.displayName("  Ada  ") == "Ada")
        #expect(try Validation.displayName(String(repeating: "é", count: 64)).count == 64)
        for bad in ["", "   ", String(repeating: "x", count: 65), "Ada\u{7}", "Ada\nL"] {
            #expect(throws: AppError.self) { try Validation.displayName(bad) }
        }
    }

    @Test(
        "a display name may not end in a mark the app adds to names, in any case or width; other brackets are names",
        arguments: [
            ("Ada (bot)", "(bot)"), ("Ada (Bot)", "(bot)"), ("Ada （ＢＯＴ）", "(bot)"), ("Ada (suspended)", "(suspended)"),
            ("Ada (bot, suspended)", "(bot, suspended)"), ("Ada (suspended bot)", "(suspended, bot)"), ("(bot)", "(bot)"),
        ])
    func markedNames(name: String, mark: String) {
        #expect(throws: AppError(.invalidInput, "a display name may not end in \(AppError.quoting(mark)): the app adds that mark itself")) {
            try Validation.displayName(name)
        }
    }

    @Test("names with other brackets keep them", arguments: ["Ada (robot)", "Ada (botanist)", "(bot) Ada", "Ada ()", "Ada (she/her)"])
    func bracketedNames(name: String) throws {
        #expect(try Validation.displayName(name) == name)
    }

    @Test("status may be empty but not over 140 characters")
    func status() throws {
        #expect(try Validation.status("") == "")
        #expect(throws: AppError.self) { try Validation.status(String(repeating: "s", count: 141)) }
    }

    /// The check of `field`, named as its errors name it.
    static func check(_ field: String) -> (String) throws -> String {
        switch field {
        case "message": Validation.messageText
        case "status": Validation.status
        case "display name": Validation.displayName
        default: Validation.title
        }
    }

    @Test(
        "each byte limit takes its last byte and refuses the next one, in fewer characters than the character limit",
        arguments: [
            ("message", Validation.maxMessageBytes, Validation.maxMessageLength),
            ("status", Validation.maxStatusBytes, Validation.maxStatusLength),
            ("display name", Validation.maxDisplayNameBytes, Validation.maxDisplayNameLength),
            ("title", Validation.maxTitleBytes, Validation.maxTitleLength),
        ])
    func byteLimits(field: String, maxBytes: Int, maxLength: Int) throws {
        let check = Self.check(field)
        let atLimit = RandomText.dense(bytes: maxBytes), over = RandomText.dense(bytes: maxBytes + 1)
        #expect(over.count <= maxLength, "the case over the byte limit is within the character limit")
        #expect(try check(atLimit).utf8.count == maxBytes)
        #expect(throws: AppError(.invalidInput, "\(field) is \(maxBytes + 1) bytes; the limit is \(maxBytes)")) { try check(over) }
    }

    @Test(
        "each character limit takes its last character and refuses the next one",
        arguments: [
            ("message", Validation.maxMessageLength), ("status", Validation.maxStatusLength),
            ("display name", Validation.maxDisplayNameLength), ("title", Validation.maxTitleLength),
        ])
    func characterLimits(field: String, maxLength: Int) throws {
        let check = Self.check(field)
        #expect(try check(String(repeating: "x", count: maxLength)).count == maxLength)
        #expect(throws: AppError(.invalidInput, "\(field) is \(maxLength + 1) characters; the limit is \(maxLength)")) {
            try check(String(repeating: "x", count: maxLength + 1))
        }
    }

    @Test("passwords need 8 characters")
    func passwords() throws {
        try Validation.password("12345678")
        #expect(throws: AppError(.invalidInput, "password must be at least 8 characters")) { try Validation.password("1234567") }
    }

    @Test("message text: trimmed, 1–4000 characters, newlines and tabs allowed, other controls refused")
    func messageText() throws {
        #expect(try Validation.messageText("  hi\nthere\t! ") == "hi\nthere\t!")
        #expect(try Validation.messageText(String(repeating: "a", count: 4_000)).count == 4_000)
        #expect(try Validation.messageText("👩🏽‍💻 مرحبا e\u{301}") == "👩🏽‍💻 مرحبا e\u{301}")
        for bad in ["", " \n ", String(repeating: "a", count: 4_001), "bell\u{7}", "esc\u{1B}[2J"] {
            #expect(throws: AppError.self) { try Validation.messageText(bad) }
        }
    }
}
