import Kernel
import Testing

@Suite("Validation")
struct ValidationTests {
    @Test("emails are trimmed, composed (NFC) and lower-cased", arguments: [
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

    @Test("status may be empty but not over 140 characters")
    func status() throws {
        #expect(try Validation.status("") == "")
        #expect(throws: AppError.self) { try Validation.status(String(repeating: "s", count: 141)) }
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
