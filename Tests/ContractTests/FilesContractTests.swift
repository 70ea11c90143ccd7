import Chat
import Files
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// Files on every backend that keeps them: a file sent with a message comes back byte for byte
/// to its conversation's members and nobody else, once however often it is retried, within the
/// limits, and leaves the store with its message.
@Suite("Files contract", .serialized, .timeLimit(.minutes(3)))
struct FilesContractTests {
    static let backends = BackendContractTests.backends

    @Test("a file sent with a message comes back byte for byte, whole or in part, with its SHA-256; a retry stores it once", arguments: backends)
    func roundTrip(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, room) = try await Self.adaAndGrace(backend)
        defer { harness.remove() }
        let (asAda, asGrace) = (harness.services(for: ada), harness.services(for: grace))
        let content = Self.random(2_500_000)
        let upload = FileUpload(
            conversationID: room, messageID: MessageID("m1"), name: "../../etc/report\u{0}.pdf", declaredSize: Int64(content.count))

        let file = try await asAda.files.upload(upload, bytes: Self.chunks(content))
        #expect(file.name == "etc_report.pdf" && file.mediaType == "application/pdf" && file.size == Int64(content.count))
        #expect(file.sha256 == Self.sha256(content))
        #expect(Self.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "FIPS 180-2's vector")
        #expect(try await asAda.files.upload(upload, bytes: Self.chunks(content)) == file, "a retried upload is the file stored first")
        let sent = try await asAda.chat.send(id: MessageID("m1"), text: "the report", to: room, replyTo: nil, attachments: [file.id])
        let retried = try await asAda.chat.send(id: MessageID("m1"), text: "the report", to: room, replyTo: nil, attachments: [file.id])
        #expect(sent.attachments.map(\.id) == [file.id] && retried == sent, "a retried send is the message stored first")
        #expect(sent.attachments.first?.sha256 == file.sha256)

        let history = try await asGrace.chat.latestMessages(in: room, limit: 10).messages
        #expect(history.map(\.attachments) == [sent.attachments], "history carries the files")
        #expect(try await Self.collect(try await asGrace.files.download(file.id, range: nil).bytes) == content)
        let part = try await asGrace.files.download(file.id, range: ByteRange(offset: 5, count: 100))
        let partBytes = try await Self.collect(part.bytes)
        #expect(part.range == ByteRange(offset: 5, count: 100) && partBytes == Array(content[5..<105]))
        let across = try await asGrace.files.download(file.id, range: ByteRange(offset: 1_048_500, count: 200))
        #expect(try await Self.collect(across.bytes) == Array(content[1_048_500..<1_048_700]), "a range across PostgreSQL's 1 MiB rows")
        let tail = try await asGrace.files.download(file.id, range: ByteRange(offset: 2_499_990, count: 1_000))
        #expect(try await Self.collect(tail.bytes) == Array(content[2_499_990...]), "a range past the end is cut at it")
        await #expect(throws: AppError.self) { try await asGrace.files.download(file.id, range: ByteRange(offset: 2_500_000, count: 1)) }
        #expect(try await asGrace.files.files(in: room, before: nil, limit: 10).map(\.id) == [file.id])
        #expect(try await asGrace.files.files(of: MessageID("m1"), in: room).map(\.id) == [file.id])
        await #expect(throws: AppError.self, "a send must carry every file uploaded for it") {
            _ = try await asAda.chat.send(id: MessageID("m2"), text: "x", to: room, replyTo: nil, attachments: [file.id])
        }
    }

    @Test(
        "only members read a sent file: an outsider, an invitee, one who left and a guessed id get 'no file'; before the send, its sender alone",
        arguments: backends)
    func membersOnly(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let mallory = try await harness.signUp("Mallory"), ivy = try await harness.signUp("Ivy")
        let asAda = harness.services(for: ada)
        let room = try await asAda.conversations.createGroup(title: "Room", memberIDs: [grace.id, mallory.id, ivy.id]).id
        for member in [grace, mallory] { _ = try await harness.services(for: member).conversations.accept(room) }
        let file = try await asAda.files.upload(
            FileUpload(conversationID: room, messageID: MessageID("m1"), name: "plan.txt"), bytes: Self.chunks([1, 2, 3]))

        await Self.expectNoFile(file.id, for: harness.services(for: grace), "a member, before the message is sent")
        #expect(try await asAda.files.file(file.id) == file, "its sender, before the send")
        _ = try await asAda.chat.send(id: MessageID("m1"), text: "", to: room, replyTo: nil, attachments: [file.id])
        #expect(try await harness.services(for: grace).files.file(file.id) == file)
        try await harness.services(for: mallory).conversations.leave(room)
        await Self.expectNoFile(file.id, for: harness.services(for: mallory), "one who left")
        await Self.expectNoFile(file.id, for: harness.services(for: ivy), "an invitee")
        let eve = try await harness.signUp("Eve")
        await Self.expectNoFile(file.id, for: harness.services(for: eve), "an outsider")
        await Self.expectNoFile(FileID.random(), for: harness.services(for: grace), "a guessed id")
        await #expect(throws: AppError.self) { _ = try await harness.services(for: eve).files.files(in: room, before: nil, limit: 10) }
        await #expect(throws: AppError.self, "an outsider cannot upload into the conversation") {
            _ = try await harness.services(for: eve).files.upload(
                FileUpload(conversationID: room, messageID: MessageID("e1"), name: "x"), bytes: Self.chunks([1]))
        }
    }

    @Test("a search finds a message by the names of its files, and not once it is deleted", arguments: backends)
    func searchByName(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, room) = try await Self.adaAndGrace(backend)
        defer { harness.remove() }
        let (asAda, asGrace) = (harness.services(for: ada), harness.services(for: grace))
        let file = try await asAda.files.upload(
            FileUpload(conversationID: room, messageID: MessageID("m1"), name: "Quarterly Zebrafish Report.pdf"), bytes: Self.chunks([1]))
        let sent = try await asAda.chat.send(id: MessageID("m1"), text: "as promised", to: room, replyTo: nil, attachments: [file.id])
        let hits = try await asGrace.search.search("zebrafish", in: nil, limit: 5, before: nil).hits
        #expect(hits.map(\.id) == [sent.id])
        #expect(hits.first?.snippet.contains("Quarterly Zebrafish Report.pdf") == true, "the hit shows the file's name")
        #expect(try await asGrace.search.search("promised", in: nil, limit: 5, before: nil).hits.map(\.id) == [sent.id])
        _ = try await asAda.chat.delete(sent.id, in: room)
        #expect(try await asGrace.search.search("zebrafish", in: nil, limit: 5, before: nil).hits.isEmpty)
    }

    @Test("deleting the message deletes its files, bytes and all, for everyone", arguments: backends)
    func deletion(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, room) = try await Self.adaAndGrace(backend)
        defer { harness.remove() }
        let asAda = harness.services(for: ada)
        let marker = Array("the-secret-file-bytes-\(UUID().uuidString)".utf8)
        let file = try await asAda.files.upload(
            FileUpload(conversationID: room, messageID: MessageID("m1"), name: "secret.txt"), bytes: Self.chunks(marker))
        _ = try await asAda.chat.send(id: MessageID("m1"), text: "keep it", to: room, replyTo: nil, attachments: [file.id])
        let tombstone = try await asAda.chat.delete(MessageID("m1"), in: room)
        #expect(tombstone.attachments.isEmpty)
        // As read back: PostgreSQL's change once left the files' names and digests in the tombstone's row.
        #expect(try await harness.services(for: grace).chat.latestMessages(in: room, limit: 5).messages.map(\.attachments) == [[]])
        await Self.expectNoFile(file.id, for: harness.services(for: grace), "after the deletion")
        await Self.expectNoFile(file.id, for: asAda, "its sender too")
        #expect(try await harness.services(for: grace).files.files(in: room, before: nil, limit: 10).isEmpty)
        if backend == .sqlite {
            let folder = harness.folder.appendingPathComponent("contract.sqlite.files").path
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "no file is left beside the database")
            #expect(try harness.storeBytes().allSatisfy { $0.range(of: Data(marker)) == nil }, "no file of the store holds the bytes")
        }
        if backend == .postgres {
            let rows = try await harness.psql("SELECT (SELECT count(*) FROM files) + (SELECT count(*) FROM file_chunks)")
            #expect(rows.hasPrefix("0"), "no row of the file is left")
            // The README's VACUUM FULL, then no file of the database holds the bytes (again while a session of the suite keeps a row version).
            let database = try await harness.psql("SELECT oid FROM pg_database WHERE datname = current_database()")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let folder = try await PostgresCluster.shared().folder.appendingPathComponent("data/base/\(database)")
            var left = -1
            for _ in 0..<20 where left != 0 {
                _ = try await harness.psql("VACUUM FULL files, file_chunks")
                _ = try await harness.psql("CHECKPOINT")
                let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                left = try files.reduce(0) { $0 + (try Data(contentsOf: $1).range(of: Data(marker)) == nil ? 0 : 1) }
            }
            #expect(left == 0, "files of the database holding the deleted file's bytes")
        }
    }

    @Test("past the size limit or the quota, or unlike what it declared, an upload is refused and leaves nothing", arguments: backends)
    func limits(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend, fileLimits: FileLimits(maxBytes: 600_000, quota: 1 << 20))
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let room = try await harness.direct(ada, grace).id
        let files = harness.services(for: ada).files
        func upload(_ message: MessageID, _ count: Int, declared: Int64? = nil) async throws -> SharedFile {
            try await files.upload(
                FileUpload(conversationID: room, messageID: message, name: "f", declaredSize: declared), bytes: Self.chunks(Self.random(count)))
        }
        await Self.expectKind(.tooLarge, "past files.maxBytes") { _ = try await upload(MessageID("a"), 600_001, declared: 600_001) }
        if backend.graphBackend != .remote {
            // Over HTTP the declared size is the body's length: a client cannot send more or fewer bytes (curl, in the stack test).
            await Self.expectKind(.tooLarge, "past files.maxBytes, counted") { _ = try await upload(MessageID("b"), 600_001) }
            await Self.expectKind(.invalidInput, "more than declared") { _ = try await upload(MessageID("c"), 20, declared: 10) }
            await Self.expectKind(.invalidInput, "fewer than declared") { _ = try await upload(MessageID("d"), 10, declared: 20) }
        }
        for message in ["e", "f"] { _ = try await upload(MessageID(message), 500_000, declared: 500_000) }
        await Self.expectKind(.tooLarge, "past the quota") { _ = try await upload(MessageID("g"), 100_000, declared: 100_000) }
        #expect(try await upload(MessageID("h"), 0, declared: 0).size == 0, "an empty file is a file")
        if backend == .sqlite {
            let folder = harness.folder.appendingPathComponent("contract.sqlite.files").path
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 3, "the refused uploads left no bytes")
        }
    }

    @Test("an upload cut short leaves no file", arguments: backends)
    func cutShort(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, room) = try await Self.adaAndGrace(backend)
        defer { harness.remove() }
        let asAda = harness.services(for: ada)
        let broken = AsyncThrowingStream<[UInt8], any Error> { continuation in
            continuation.yield(Self.random(100_000))
            continuation.finish(throwing: AppError(.unavailable, "the connection dropped"))
        }
        await #expect(throws: (any Error).self) {
            _ = try await asAda.files.upload(FileUpload(conversationID: room, messageID: MessageID("m0"), name: "cut"), bytes: broken)
        }
        #expect(try await asAda.files.files(of: MessageID("m0"), in: room).isEmpty)
        let retried = try await asAda.files.upload(
            FileUpload(conversationID: room, messageID: MessageID("m0"), name: "cut"), bytes: Self.chunks([1, 2]))
        #expect(retried.size == 2, "the upload tried again is stored whole")
    }

    @Test("an upload whose message never comes is cleaned up after an hour; a sent one stays", arguments: BackendContractTests.clockedBackends)
    func cleanUp(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, room) = try await Self.adaAndGrace(backend)
        defer { harness.remove() }
        let asAda = harness.services(for: ada)
        let unsent = try await asAda.files.upload(FileUpload(conversationID: room, messageID: MessageID("m1"), name: "a"), bytes: Self.chunks([1]))
        let sent = try await asAda.files.upload(FileUpload(conversationID: room, messageID: MessageID("m2"), name: "b"), bytes: Self.chunks([2]))
        _ = try await asAda.chat.send(id: MessageID("m2"), text: "", to: room, replyTo: nil, attachments: [sent.id])
        let cleanup = try #require(harness.graph.fileCleanup)
        let folder = harness.folder.appendingPathComponent("contract.sqlite.files").path
        if backend == .sqlite {
            // Bytes no row names, more than one look-up of rows takes, and a sent file's
            // leftover `.part`: an upload that died, each.
            for number in 0..<1_201 { FileManager.default.createFile(atPath: folder + "/stray\(number)", contents: Data([1])) }
            FileManager.default.createFile(atPath: folder + "/" + sent.id.rawValue + ".part", contents: Data([2]))
        }
        #expect(try await cleanup.pass() == 0, "nothing is an hour old yet")
        harness.clock.advance(by: 3_601)
        #expect(try await cleanup.pass() == 1, "the unsent upload goes")
        await Self.expectNoFile(unsent.id, for: asAda, "the unsent upload")
        #expect(try await harness.services(for: grace).files.file(sent.id) == sent, "the sent file stays")
        #expect(try await cleanup.pass() == 0)
        if backend == .sqlite {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [sent.id.rawValue])
        }
    }

    @Test(
        "a local process cleans up after an upload at most once in ten minutes: a pass lists every stored file",
        arguments: [ContractBackend.sqlite, .postgres])
    func passAfterUpload(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, room) = try await Self.adaAndGrace(backend)
        defer { harness.remove() }
        let asAda = harness.services(for: ada)
        func upload(_ message: String) async throws -> SharedFile {
            try await asAda.files.upload(FileUpload(conversationID: room, messageID: MessageID(message), name: message), bytes: Self.chunks([1]))
        }
        let unsent = try await upload("m1")  // its pass: nothing is an hour old
        harness.clock.advance(by: 3_599)
        _ = try await upload("m2")  // a pass: the first upload is a second short of an hour
        harness.clock.advance(by: 3)
        _ = try await upload("m3")  // no pass: the last was 3 s ago
        #expect(try await asAda.files.file(unsent.id) == unsent, "kept until the next pass is due")
        harness.clock.advance(by: Double(FileCleanup.interval.components.seconds))
        _ = try await upload("m4")  // a pass
        await Self.expectNoFile(unsent.id, for: asAda, "the unsent upload, gone with the pass after an upload ten minutes on")
    }

    @Test("PostgreSQL: an upload still coming after an hour keeps its chunks through a clean-up pass; one stalled an hour is swept")
    func slowUploadOnPostgres() async throws {
        let harness = try await BackendHarness(.postgres)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let room = try await harness.direct(ada, grace).id
        let cleanup = try #require(harness.graph.fileCleanup)
        let (bytes, feed) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let content = Self.random(2 << 20 + 1)
        let upload = Task {
            try await harness.services(for: ada).files.upload(
                FileUpload(conversationID: room, messageID: MessageID("m1"), name: "slow"), bytes: bytes)
        }
        /// Waits until `rows` chunk rows are stored.
        func stored(_ rows: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            var count = ""
            for _ in 0..<250 {
                count = try await harness.psql("SELECT count(*) FROM file_chunks").trimmingCharacters(in: .whitespacesAndNewlines)
                if count == "\(rows)" { return }
                try await Task.sleep(for: .milliseconds(20))
            }
            Issue.record("\(count) chunk rows, not \(rows)", sourceLocation: sourceLocation)
        }
        feed.yield(Array(content[..<(1 << 20)]))
        try await stored(1)
        harness.clock.advance(by: 1_800)
        feed.yield(Array(content[(1 << 20)..<(2 << 20)]))
        try await stored(2)
        harness.clock.advance(by: 1_801)
        try await cleanup.pass()
        feed.yield(Array(content[(2 << 20)...]))
        feed.finish()
        let file = try await upload.value
        _ = try await harness.services(for: ada).chat.send(id: MessageID("m1"), text: "", to: room, replyTo: nil, attachments: [file.id])
        #expect(try await Self.collect(try await harness.services(for: grace).files.download(file.id, range: nil).bytes) == content)

        let (stalled, stall) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let abandoned = Task {
            try await harness.services(for: ada).files.upload(FileUpload(conversationID: room, messageID: MessageID("m2"), name: "x"), bytes: stalled)
        }
        stall.yield(Array(content[..<(1 << 20)]))
        try await stored(4)
        harness.clock.advance(by: 3_601)
        try await cleanup.pass()
        try await stored(3)
        abandoned.cancel()
        stall.finish(throwing: CancellationError())
        _ = try? await abandoned.value
    }

    static func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    static func chunks(_ bytes: [UInt8], size: Int = 65_536) -> FileBytes {
        AsyncThrowingStream<[UInt8], any Error> { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) { continuation.yield(Array(bytes[start..<min(start + size, bytes.count)])) }
            continuation.finish()
        }
    }

    static func collect(_ bytes: FileBytes) async throws -> [UInt8] {
        var all: [UInt8] = []
        for try await chunk in bytes { all += chunk }
        return all
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        var digest = SHA256FileDigest()
        digest.update(bytes)
        return digest.hex()
    }

    /// A harness on `backend` with Ada and Grace signed up and their one-to-one conversation.
    static func adaAndGrace(_ backend: ContractBackend) async throws -> (BackendHarness, BackendHarness.User, BackendHarness.User, ConversationID) {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        return (harness, ada, grace, try await harness.direct(ada, grace).id)
    }

    static func expectNoFile(_ id: FileID, for services: ServiceSet, _ who: Comment, sourceLocation: SourceLocation = #_sourceLocation) async {
        await expectKind(.notFound, who, sourceLocation: sourceLocation) { _ = try await services.files.file(id) }
        await expectKind(.notFound, who, sourceLocation: sourceLocation) { _ = try await services.files.download(id, range: nil) }
    }

    static func expectKind(
        _ kind: AppError.Kind, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation, _ work: () async throws -> Void
    ) async {
        do {
            try await work()
            Issue.record("expected \(kind): \(comment)", sourceLocation: sourceLocation)
        } catch {
            #expect(AppError(error).kind == kind, comment, sourceLocation: sourceLocation)
        }
    }
}
