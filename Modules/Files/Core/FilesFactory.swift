import Kernel

/// Makes Files' view models and hands out its service; the container conforms, views ask for it.
@MainActor
public protocol FilesFactory {
    /// The files of a conversation.
    func makeFilesViewModel(conversationID: ConversationID) -> FilesViewModel
    /// The signed-in user's files service: uploads before a send, downloads to save or open.
    var files: any FilesService { get }
}
