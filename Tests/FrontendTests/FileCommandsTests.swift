import Foundation
import TestSupport
import Testing

/// `send --file`, `files`, `save` and `open` as people run them, on each backend a person's CLI
/// can share: a SQLite file, and a server over SQLite or PostgreSQL.
@MainActor
@Suite("File commands", .serialized, .timeLimit(.minutes(3)))
struct FileCommandsTests {
    let terminal = TestTerminal()

    @Test(
        "send --file stores each file once however often retried; files lists them; save never overwrites without --force and names them safely; open saves in the cache; a stranger and a deleted message get 66",
        arguments: TestTerminal.SharedStore.allCases)
    func sendSaveOpen(_ store: TestTerminal.SharedStore) async throws {
        let server = try await terminal.serve(store)
        defer { server?.stop() }
        for (name, profile) in [("Ada", []), ("Grace", ["--profile", "grace"]), ("Eve", ["--profile", "eve"])] {
            terminal.setInput(["password123"])
            let signup = ["signup", "--email", "\(name.lowercased())@example.com", "--name", name, "--password-stdin"]
            #expect(await terminal.run(arguments: profile + signup) == 0)
        }
        #expect(await terminal.run("chats new grace@example.com") == 0)
        #expect(await terminal.run("--profile grace chats new ada@example.com") == 0)
        let folder = terminal.stateDirectory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        let report = folder.appendingPathComponent("-report.txt"), picture = folder.appendingPathComponent("picture.png")
        let (reportBytes, pictureBytes) = (Data("the figures".utf8), Data((0..<300_000).map { UInt8($0 % 256) }))
        try reportBytes.write(to: report)
        try pictureBytes.write(to: picture)

        let send = ["send", "Grace", "for you", "--file", report.path, "--file", picture.path, "--id", "f1", "--json"]
        #expect(await terminal.run(arguments: send) == 0, "\(terminal.errors)")
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(terminal.output.split(separator: "\n").last!.utf8)) as? [String: Any])
        let attachments = try #require(sent["attachments"] as? [[String: Any]])
        #expect(attachments.map { $0["name"] as? String } == ["report.txt", "picture.png"], "a leading dash is dropped")
        #expect(attachments.map { $0["mediaType"] as? String } == ["text/plain", "image/png"])
        let conversation = try #require(sent["conversationId"] as? String)
        #expect(await terminal.run(arguments: send) == 0, "a retry: \(terminal.errors)")
        #expect(await terminal.run(arguments: ["--profile", "grace", "files", "Ada", "--json"]) == 0)
        #expect(terminal.output.split(separator: "\n").count == 2, "the retry stored nothing more: \(terminal.output)")

        let out = folder.appendingPathComponent("out")
        #expect(await terminal.run(arguments: ["--profile", "grace", "save", "Ada", "f1", "--to", out.path]) == 0, "\(terminal.errors)")
        #expect(try Data(contentsOf: out.appendingPathComponent("report.txt")) == reportBytes)
        #expect(try Data(contentsOf: out.appendingPathComponent("picture.png")) == pictureBytes)
        try Data("mine".utf8).write(to: out.appendingPathComponent("report.txt"))
        #expect(await terminal.run(arguments: ["--profile", "grace", "save", "Ada", "f1", "--to", out.path]) == 67, "never over a file")
        #expect(try Data(contentsOf: out.appendingPathComponent("report.txt")) == Data("mine".utf8))
        #expect(await terminal.run(arguments: ["--profile", "grace", "save", "Ada", "f1", "--to", out.path, "--force"]) == 0)
        #expect(try Data(contentsOf: out.appendingPathComponent("report.txt")) == reportBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["picture.png", "report.txt"], "no part left")

        let cache = folder.appendingPathComponent("cache")
        let opened = await terminal.run(arguments: ["--profile", "grace", "open", "Ada", "f1"], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(opened == 0 && terminal.output.contains("No program to open files here"), "no desktop here: \(terminal.output)")
        let cached = cache.appendingPathComponent("messageai/files/\(conversation)/f1/picture.png")
        #expect(try Data(contentsOf: cached) == pictureBytes)

        #expect(await terminal.run(arguments: ["--profile", "eve", "save", conversation, "f1", "--to", out.path]) == 66, "a stranger")
        #expect(await terminal.run(arguments: ["delete", "Grace", "f1"]) == 0)
        #expect(await terminal.run(arguments: ["--profile", "grace", "save", "Ada", "f1", "--to", out.path, "--force"]) == 66, "deleted")
        #expect(await terminal.run(arguments: ["send", "Grace", "--file", folder.path]) == 65, "a folder is not a file")
        #expect(await terminal.run(arguments: ["send", "Grace", "--file", folder.appendingPathComponent("nothing").path]) == 66)
    }
}
