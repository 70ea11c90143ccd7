import Files
import Foundation
import Kernel
import TestSupport
import Testing

@Suite("Files view model")
@MainActor
struct FilesViewModelTests {
    /// Everyone is a member; a file is carried unless its message is in `unsent`.
    struct Shared: SharedMessages {
        let unsent: Set<MessageID>
        func members(of conversationID: ConversationID) async throws -> [UserID]? { [UserID("ada"), UserID("bob")] }
        func carried(_ files: [SharedFile]) async throws -> Set<FileID> { Set(files.filter { !unsent.contains($0.messageID) }.map(\.id)) }
    }

    /// Counts bytes: enough for what the view model shows.
    struct Count: FileDigest {
        var count = 0
        mutating func update(_ bytes: [UInt8]) { count += bytes.count }
        func hex() -> String { String(count) }
    }

    @Test("a conversation's sent files, newest first, a page at a time; an upload whose message is not sent is left out")
    func pages() async throws {
        let clock = TestClock()
        let service = StoredFilesService(
            store: InMemoryFilesStore(clock: clock), shared: Shared(unsent: [MessageID("m2")]), caller: Caller(token: "t") { UserID("ada") },
            limits: FileLimits(), digest: { Count() }, clock: clock)
        let conversation = ConversationID("c")
        for index in 0..<5 {
            clock.advance(by: 1)
            let bytes = AsyncThrowingStream<[UInt8], any Error> { continuation in
                continuation.yield(Array(repeating: 1, count: index))
                continuation.finish()
            }
            _ = try await service.upload(FileUpload(conversationID: conversation, messageID: MessageID("m\(index)"), name: "f\(index)"), bytes: bytes)
        }
        let model = FilesViewModel(service: service, conversationID: conversation)
        #expect(model.files == .idle)
        await model.load(pageSize: 2)
        #expect(model.files.value?.map(\.name) == ["f4", "f3"] && model.hasOlder)
        await model.more(pageSize: 2)
        #expect(model.files.value?.map(\.name) == ["f4", "f3", "f1", "f0"], "f2's message is not sent")
        await model.more(pageSize: 2)
        #expect(model.files.value?.map(\.name) == ["f4", "f3", "f1", "f0"] && !model.hasOlder)
        #expect(model.files.value?.first?.sha256 == "4" && model.files.value?.first?.size == 4)
    }
}
