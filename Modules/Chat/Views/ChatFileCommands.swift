import CLIKit
import Chat
import Foundation
import Kernel
import REPLKit

/// A conversation screen's commands for files: `/attach PATH [CAPTION]` sends one, `/save [#N]
/// [PATH]` saves those of a message and `/open [#N]` hands them to the desktop's opener (the
/// files are Files'; the screen reaches them through `FrontendLookup`).
@MainActor
struct ChatFileCommands {
    let context: REPLContext
    let conversationID: ConversationID
    let model: ChatViewModel
    /// The message `#N` at the start of some arguments names (or the last one), and the rest;
    /// `nil`, said on the screen, for none (`MessageTarget`).
    let target: (_ arguments: String, _ verb: String) -> (Message, String)?

    var commands: [REPLCommand] {
        [
            REPLCommand("attach", arguments: "PATH [CAPTION]", summary: "send a file (a path with spaces in \"quotes\"), with a caption") {
                arguments in await attach(arguments)
            },
            REPLCommand("save", arguments: "[#N] [PATH]", summary: "save the files of message #N (/recent), or the last one, here or at PATH") {
                arguments in await save(arguments)
            },
            REPLCommand("open", arguments: "[#N] | CHAT", summary: "open the files of message #N (/recent), or the last one; or open CHAT") {
                arguments in await open(arguments)
            },
        ]
    }

    /// The media types drawn as pictures, where the front end draws them (the bytes decide in the
    /// end: a file is drawn only if it is a PNG, JPEG, GIF or WebP whatever its sender said it was;
    /// a GIF's or an animated WebP's first frame).
    static let pictureTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// The pictures `message` carries, to print after its line, where the front end draws
    /// pictures (the full-screen UI on a terminal with kitty graphics or sixel); elsewhere, and
    /// for a file over `REPLContext.maxPictureBytes`, its line is all that shows of it.
    static func pictures(of message: Message, in context: REPLContext) -> [Printed] {
        guard context.drawsPictures, !message.deleted else { return [] }
        return message.attachments.filter { pictureTypes.contains($0.mediaType) && $0.size <= REPLContext.maxPictureBytes }.map { file in
            .picture(context.lookup.fileBytes(file.id, atMost: REPLContext.maxPictureBytes))
        }
    }

    private func attach(_ arguments: String) async {
        guard let (path, caption) = Self.path(in: arguments) else { return context.show("Say which file: /attach PATH [CAPTION].") }
        let id = MessageID.random()
        do {
            let file = try await context.lookup.shareFile(at: (path as NSString).expandingTildeInPath, for: id, position: 0, in: conversationID)
            await model.send(caption, id: id, attachments: [file])
            if let error = model.inputError ?? model.lastSendError { context.showError(error) }
        } catch {
            context.showError(AppError(error))
        }
    }

    private func save(_ arguments: String) async {
        guard let (message, rest) = carrying(arguments, "save") else { return }
        let destination = rest.isEmpty ? nil : (Self.path(in: rest)?.path).map { ($0 as NSString).expandingTildeInPath }
        do {
            for file in try await context.lookup.saveFiles(of: message.id, in: conversationID, to: destination, force: false) {
                context.show(file.savedLine)
            }
        } catch {
            context.showError(AppError(error))
        }
    }

    /// `/open` with `#N` or nothing opens files; with anything else it opens that conversation, as
    /// the list's `/open` does anywhere else.
    private func open(_ arguments: String) async {
        let reference = arguments.trimmingCharacters(in: .whitespaces)
        guard reference.isEmpty || reference.hasPrefix("#") else {
            do {
                return context.navigate(.push(.conversation(try await context.lookup.conversationID(for: reference))))
            } catch {
                return context.showError(AppError(error))
            }
        }
        guard let (message, _) = carrying(arguments, "open") else { return }
        do {
            let (files, opened) = try await context.lookup.openFiles(of: message.id, in: conversationID)
            files.forEach { context.show($0.openedLine(opened)) }
        } catch {
            context.showError(AppError(error))
        }
    }

    /// The message `arguments` names for `verb`, when it carries files.
    private func carrying(_ arguments: String, _ verb: String) -> (Message, String)? {
        guard let (message, rest) = target(arguments, verb) else { return nil }
        guard !message.attachments.isEmpty else {
            context.show("That message carries no file; /recent numbers the last ones.")
            return nil
        }
        return (message, rest)
    }

    /// The path at the start of `arguments` (in double quotes when it has spaces) and the rest.
    static func path(in arguments: String) -> (path: String, rest: String)? {
        let text = arguments.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\""), let end = text.dropFirst().firstIndex(of: "\"") {
            let path = String(text[text.index(after: text.startIndex)..<end])
            return path.isEmpty ? nil : (path, text[text.index(after: end)...].trimmingCharacters(in: .whitespaces))
        }
        let words = text.split(separator: " ", maxSplits: 1)
        guard let first = words.first else { return nil }
        return (String(first), words.count > 1 ? String(words[1]) : "")
    }
}
