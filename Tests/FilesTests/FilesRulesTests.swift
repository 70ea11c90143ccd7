import Files
import Foundation
import Kernel
import Testing

@Suite("Files rules")
struct FilesRulesTests {
    @Test(
        "a sender's name is made safe: no path, no control or formatting characters, no leading dot or dash, at most 255 bytes",
        arguments: [
            ("report.pdf", "report.pdf"), ("../../etc/passwd", "etc_passwd"), ("a/b\\c.txt", "a_b_c.txt"), (".bashrc", "bashrc"),
            ("-rf", "rf"), ("--help.txt", "help.txt"), ("nul\u{0}byte", "nulbyte"), ("\u{1B}[31mred\u{07}", "[31mred"),
            ("evil\u{202E}fdp.exe", "evilfdp.exe"), ("   ", "file"), ("...", "file"), ("", "file"), ("trailing. ", "trailing"),
            ("line\nbreak", "linebreak"),
        ])
    func names(_ raw: String, _ safe: String) {
        #expect(FilesRules.name(raw) == safe)
    }

    @Test("a name of 4,000 characters keeps its first 255 bytes, whole characters only")
    func longName() {
        let name = FilesRules.name(String(repeating: "é", count: 4_000))
        #expect(name.utf8.count <= FilesRules.maxNameBytes && name.utf8.count >= FilesRules.maxNameBytes - 1)
        #expect(name.allSatisfy { $0 == "é" })
    }

    @Test(
        "a media type is the sender's when well formed, else guessed from the name",
        arguments: [
            ("image/PNG", "a.bin", "image/png"), ("text/plain; charset=utf-8", "a", "text/plain"), ("not a type", "a.jpg", "image/jpeg"),
            (nil, "photo.JPEG", "image/jpeg"), (nil, "archive", "application/octet-stream"), ("a/b/c", "x.pdf", "application/pdf"),
            ("\u{1B}[0m/x", "x", "application/octet-stream"),
        ] as [(String?, String, String)])
    func mediaTypes(_ raw: String?, _ name: String, _ type: String) {
        #expect(FilesRules.mediaType(raw, name: name) == type)
    }

    @Test("sizes: files off at 0, refused past the limit and past the quota")
    func sizes() throws {
        #expect(throws: AppError(.forbidden, "files are turned off here (files.maxBytes is 0)")) {
            try FilesRules.allow(1, stored: 0, limits: FileLimits(maxBytes: 0))
        }
        try FilesRules.allow(100, stored: 0, limits: FileLimits(maxBytes: 100))
        #expect(throws: AppError.self) { try FilesRules.allow(101, stored: 0, limits: FileLimits(maxBytes: 100)) }
        try FilesRules.allow(50, stored: 950, limits: FileLimits(maxBytes: 100, quota: 1_000))
        #expect(throws: AppError.self) { try FilesRules.allow(51, stored: 950, limits: FileLimits(maxBytes: 100, quota: 1_000)) }
        #expect(FileLimits().maxBytes == 100 * 1_048_576 && FileLimits.defaultQuota == 1_073_741_824, "the README's 100 MiB and 1 GiB")
    }

    @Test("a range is cut at the end of the file; one starting past it is refused")
    func ranges() throws {
        #expect(try FilesRules.range(nil, of: 10) == ByteRange(offset: 0, count: 10))
        #expect(try FilesRules.range(ByteRange(offset: 4, count: 100), of: 10) == ByteRange(offset: 4, count: 6))
        #expect(throws: AppError.self) { try FilesRules.range(ByteRange(offset: 10, count: 1), of: 10) }
        #expect(try FilesRules.range(ByteRange(offset: 0, count: 5), of: 0) == ByteRange(offset: 0, count: 0), "an empty file, whole")
    }

    @Test("who reads a file: members once it is sent, its sender before; nobody outside")
    func readers() {
        let (ada, bob, eve) = (UserID("ada"), UserID("bob"), UserID("eve"))
        let file = SharedFile(
            id: FileID("f"), conversationID: ConversationID("c"), messageID: MessageID("m"), position: 0, ownerID: ada, name: "a",
            mediaType: "text/plain", size: 1, sha256: "",
            createdAt: Date())
        #expect(FilesRules.readable(file, by: ada, members: [ada, bob], carried: false))
        #expect(!FilesRules.readable(file, by: bob, members: [ada, bob], carried: false))
        #expect(FilesRules.readable(file, by: bob, members: [ada, bob], carried: true))
        #expect(!FilesRules.readable(file, by: eve, members: [ada, bob], carried: true))
        #expect(!FilesRules.readable(file, by: ada, members: [bob], carried: true), "its sender, after leaving")
        #expect(!FilesRules.readable(file, by: ada, members: nil, carried: true))
    }
}
