import Chat
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// Chat's tables on PostgreSQL, as on SQLite (`ChatSchema`): `messages` numbered by the store's
/// sequence (`seq`) and within their conversation (`position`), `chat_activity`, `chat_reads` and
/// `chat_epoch`; and `messageai_send`, which stores a batch of sends in one statement, so that a
/// batch costs one round trip and holds the store's order for no longer than its own work.
public enum PostgresChatSchema {
    /// Chat's migrations, oldest first.
    public static let migrations = [
        PGDatabase.Migration(
            feature: "chat", version: 1,
            [
                """
                CREATE TABLE messages (seq bigint PRIMARY KEY, id text COLLATE "C" NOT NULL, conversation_id text COLLATE "C" NOT NULL,
                                       position bigint NOT NULL, sender_id text COLLATE "C" NOT NULL, text text NOT NULL, sent_at bigint NOT NULL,
                                       UNIQUE (conversation_id, id))
                """,
                "CREATE UNIQUE INDEX messages_by_position ON messages (conversation_id, position)",
                "CREATE INDEX messages_by_conversation_seq ON messages (conversation_id, seq)",
                #"CREATE TABLE chat_activity (conversation_id text COLLATE "C" PRIMARY KEY, message_count bigint NOT NULL, last_seq bigint NOT NULL)"#,
                """
                CREATE TABLE chat_reads (user_id text COLLATE "C" NOT NULL, conversation_id text COLLATE "C" NOT NULL, read_count bigint NOT NULL,
                                         PRIMARY KEY (user_id, conversation_id))
                """,
                "CREATE TABLE chat_epoch (epoch text NOT NULL)",
                "INSERT INTO chat_epoch (epoch) VALUES (substr(md5(random()::text || clock_timestamp()::text), 1, 10))",
                sendFunction(replies: false),
            ]),
        // Messages their authors edit or delete, as on SQLite (`ChatSchema`, step 7).
        PGDatabase.Migration(
            feature: "chat", version: 2,
            [
                "ALTER TABLE messages ADD COLUMN version integer NOT NULL DEFAULT 0",
                "ALTER TABLE messages ADD COLUMN edited_at bigint",
                "ALTER TABLE messages ADD COLUMN deleted boolean NOT NULL DEFAULT false",
                """
                CREATE TABLE message_changes (seq bigint PRIMARY KEY, kind text NOT NULL, conversation_id text COLLATE "C" NOT NULL,
                                              message_id text COLLATE "C" NOT NULL)
                """,
                "CREATE INDEX message_changes_by_conversation_seq ON message_changes (conversation_id, seq)",
            ]),
        // Reactions, as on SQLite (step 8).
        PGDatabase.Migration(feature: "chat", version: 3, ["ALTER TABLE messages ADD COLUMN reactions text"]),
        // Replies, as on SQLite (step 9); the send function takes the message each send answers.
        PGDatabase.Migration(
            feature: "chat", version: 4,
            [
                #"ALTER TABLE messages ADD COLUMN reply_to text COLLATE "C""#,
                "DROP FUNCTION messageai_send(text[], text[], text[], text[], bigint[])",
                sendFunction(replies: true),
            ]),
        // Who keeps their read receipts private, as on SQLite (step 10).
        PGDatabase.Migration(feature: "chat", version: 5, [#"CREATE TABLE chat_receipt_privacy (user_id text COLLATE "C" PRIMARY KEY)"#]),
        // Mentions, as on SQLite (step 11); the send function takes whom each send mentions.
        PGDatabase.Migration(
            feature: "chat", version: 6,
            [
                "ALTER TABLE messages ADD COLUMN mentions text",
                """
                CREATE TABLE message_mentions (user_id text COLLATE "C" NOT NULL, seq bigint NOT NULL, conversation_id text COLLATE "C" NOT NULL,
                                               position bigint NOT NULL, PRIMARY KEY (user_id, seq))
                """,
                "CREATE INDEX message_mentions_by_conversation ON message_mentions (user_id, conversation_id, position)",
                "DROP FUNCTION messageai_send(text[], text[], text[], text[], bigint[], text[])",
                sendFunction(replies: true, mentions: true),
            ]),
        // The send function's look-up of `messages` planned at each call (`sendFunctionPlannedEachCall`).
        PGDatabase.Migration(
            feature: "chat", version: 7,
            [
                "DROP FUNCTION messageai_send(text[], text[], text[], text[], bigint[], text[], text[])",
                sendFunctionPlannedEachCall,
            ]),
        // Files, as on SQLite (step 12); a send that carries files sets them in its transaction
        // (`PostgresMessageStore`).
        PGDatabase.Migration(feature: "chat", version: 8, ["ALTER TABLE messages ADD COLUMN attachments text"]),
    ]

    /// Stores a batch of sends: takes the store's order first, numbers the sends not stored yet
    /// (the first of each id in the batch) in the order given, gives them the next positions of
    /// their conversations, moves the activity and the senders' read markers, announces the
    /// commit, and returns, for each send in order, the stored message and whether it is new.
    /// With `replies`, each send also names the message it answers (or the empty text for none),
    /// as the function has since step 4 of Chat's migrations; with `mentions`, whom it mentions
    /// (a JSON array, or the empty text for none), each stored in `message_mentions` too, and it
    /// returns whom each stored message mentions (step 6).
    private static func sendFunction(replies: Bool, mentions: Bool = false) -> String {
        var (parameter, column, value) = replies ? (", reply_tos text[]", ", reply_to", ", reply_tos") : ("", "", "")
        if mentions { (parameter, column, value) = (parameter + ", mention_lists text[]", column + ", mentions", value + ", mention_lists") }
        let stored = (replies ? ", nullif(n.reply_to, '')" : "") + (mentions ? ", nullif(n.mentions, '')" : "")
        let mentioned =
            mentions
            ? """

                mentioned AS (
                    INSERT INTO message_mentions (user_id, seq, conversation_id, position)
                    SELECT p.person, s.seq, s.conversation_id, s.position FROM stored s, json_array_elements_text(s.mentions::json) AS p(person)
                    WHERE s.mentions IS NOT NULL),
            """ : ""
        return #"""
            CREATE FUNCTION messageai_send(ids text[], conversations text[], senders text[], texts text[], sent_ats bigint[]\#(parameter))
            RETURNS TABLE (ord bigint, seq bigint, is_new boolean, sender_id text, text text, sent_at bigint\#(mentions ? ", mentions text" : ""))
            LANGUAGE plpgsql AS $fn$
            #variable_conflict use_column
            DECLARE
                top bigint;
                added bigint;
            BEGIN
                SELECT s.value INTO top FROM store_sequence s FOR UPDATE;
                WITH input AS (
                    SELECT u.id, u.conversation_id, u.sender_id, u.text, u.sent_at\#(column.replacingOccurrences(of: ", ", with: ", u.")), u.ord,
                           row_number() OVER (PARTITION BY u.conversation_id, u.id ORDER BY u.ord) AS nth
                    FROM unnest(ids, conversations, senders, texts, sent_ats\#(value)) WITH ORDINALITY
                         AS u(id, conversation_id, sender_id, text, sent_at\#(column), ord)),
                numbered AS (
                    SELECT i.*, top + row_number() OVER (ORDER BY i.ord) AS new_seq,
                           coalesce(a.message_count, 0) + row_number() OVER (PARTITION BY i.conversation_id ORDER BY i.ord) AS new_position
                    FROM input i LEFT JOIN chat_activity a ON a.conversation_id = i.conversation_id
                    WHERE i.nth = 1 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = i.conversation_id AND m.id = i.id)),
                stored AS (
                    INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at\#(column))
                    SELECT n.new_seq, n.id, n.conversation_id, n.new_position, n.sender_id, n.text, n.sent_at\#(stored) FROM numbered n
                    RETURNING messages.conversation_id, messages.seq, messages.position, messages.sender_id\#(mentions ? ", messages.mentions" : "")),\#(mentioned)
                activity AS (
                    INSERT INTO chat_activity AS a (conversation_id, message_count, last_seq)
                    SELECT s.conversation_id, max(s.position), max(s.seq) FROM stored s GROUP BY s.conversation_id
                    ON CONFLICT (conversation_id) DO UPDATE SET message_count = excluded.message_count, last_seq = excluded.last_seq),
                reads AS (
                    INSERT INTO chat_reads AS r (user_id, conversation_id, read_count)
                    SELECT s.sender_id, s.conversation_id, max(s.position) FROM stored s GROUP BY s.sender_id, s.conversation_id
                    ON CONFLICT (user_id, conversation_id) DO UPDATE SET read_count = greatest(r.read_count, excluded.read_count))
                SELECT count(*) INTO added FROM stored;
                IF added > 0 THEN
                    UPDATE store_sequence SET value = top + added;
                    PERFORM pg_notify('messageai_events', (top + added)::text);
                END IF;
                RETURN QUERY
                    SELECT u.ord, m.seq, m.seq > top AND u.nth = 1, m.sender_id::text, m.text, m.sent_at\#(mentions ? ", m.mentions" : "")
                    FROM (SELECT v.id, v.conversation_id, v.ord, row_number() OVER (PARTITION BY v.conversation_id, v.id ORDER BY v.ord) AS nth
                          FROM unnest(ids, conversations) WITH ORDINALITY AS v(id, conversation_id, ord)) u
                    JOIN messages m ON m.conversation_id = u.conversation_id AND m.id = u.id
                    ORDER BY u.ord;
            END
            $fn$
            """#
    }

    /// `sendFunction(replies: true, mentions: true)` whose one look-up of `messages` (the sends
    /// of the batch already stored, with what is stored) runs through `EXECUTE`, so PostgreSQL
    /// plans it at each call for the table as it is then, statistics or none; the rows returned
    /// are made from the batch and that look-up, without reading `messages` again. PL/pgSQL
    /// otherwise keeps a generic plan per connection from the sixth call on, costed with the
    /// estimates of that moment: on a new database (a table never analyzed counts as 10 pages)
    /// the function's plans were a hash join over a `Seq Scan on messages` and a walk of the
    /// sender's whole conversation, kept as the table grew until autovacuum's first ANALYZE
    /// (docs/performance.md, "A fresh PostgreSQL database").
    static let sendFunctionPlannedEachCall = #"""
        CREATE FUNCTION messageai_send(ids text[], conversations text[], senders text[], texts text[], sent_ats bigint[], reply_tos text[], mention_lists text[])
        RETURNS TABLE (ord bigint, seq bigint, is_new boolean, sender_id text, text text, sent_at bigint, mentions text)
        LANGUAGE plpgsql AS $fn$
        #variable_conflict use_column
        DECLARE
            top bigint;
            added bigint;
            k_ord bigint[]; k_seq bigint[]; k_sender text[]; k_text text[]; k_sent bigint[]; k_mentions text[];
        BEGIN
            SELECT s.value INTO top FROM store_sequence s FOR UPDATE;
            EXECUTE 'SELECT coalesce(array_agg(u.ord), ''{}''), coalesce(array_agg(m.seq), ''{}''), coalesce(array_agg(m.sender_id::text), ''{}''),
                            coalesce(array_agg(m.text), ''{}''), coalesce(array_agg(m.sent_at), ''{}''), coalesce(array_agg(m.mentions::text), ''{}'')
                     FROM unnest($1, $2) WITH ORDINALITY AS u(id, conversation_id, ord)
                     JOIN messages m ON m.conversation_id = u.conversation_id AND m.id = u.id'
                INTO k_ord, k_seq, k_sender, k_text, k_sent, k_mentions USING ids, conversations;
            WITH input AS (
                SELECT u.id, u.conversation_id, u.sender_id, u.text, u.sent_at, u.reply_to, u.mentions, u.ord,
                       row_number() OVER (PARTITION BY u.conversation_id, u.id ORDER BY u.ord) AS nth
                FROM unnest(ids, conversations, senders, texts, sent_ats, reply_tos, mention_lists) WITH ORDINALITY
                     AS u(id, conversation_id, sender_id, text, sent_at, reply_to, mentions, ord)),
            numbered AS (
                SELECT i.*, top + row_number() OVER (ORDER BY i.ord) AS new_seq,
                       coalesce(a.message_count, 0) + row_number() OVER (PARTITION BY i.conversation_id ORDER BY i.ord) AS new_position
                FROM input i LEFT JOIN chat_activity a ON a.conversation_id = i.conversation_id
                WHERE i.nth = 1 AND i.ord <> ALL (k_ord)),
            stored AS (
                INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at, reply_to, mentions)
                SELECT n.new_seq, n.id, n.conversation_id, n.new_position, n.sender_id, n.text, n.sent_at, nullif(n.reply_to, ''), nullif(n.mentions, '') FROM numbered n
                RETURNING messages.conversation_id, messages.seq, messages.position, messages.sender_id, messages.mentions),
            mentioned AS (
                INSERT INTO message_mentions (user_id, seq, conversation_id, position)
                SELECT p.person, s.seq, s.conversation_id, s.position FROM stored s, json_array_elements_text(s.mentions::json) AS p(person)
                WHERE s.mentions IS NOT NULL),
            activity AS (
                INSERT INTO chat_activity AS a (conversation_id, message_count, last_seq)
                SELECT s.conversation_id, max(s.position), max(s.seq) FROM stored s GROUP BY s.conversation_id
                ON CONFLICT (conversation_id) DO UPDATE SET message_count = excluded.message_count, last_seq = excluded.last_seq),
            reads AS (
                INSERT INTO chat_reads AS r (user_id, conversation_id, read_count)
                SELECT s.sender_id, s.conversation_id, max(s.position) FROM stored s GROUP BY s.sender_id, s.conversation_id
                ON CONFLICT (user_id, conversation_id) DO UPDATE SET read_count = greatest(r.read_count, excluded.read_count))
            SELECT count(*) INTO added FROM stored;
            IF added > 0 THEN
                UPDATE store_sequence SET value = top + added;
                PERFORM pg_notify('messageai_events', (top + added)::text);
            END IF;
            RETURN QUERY
                WITH input AS (
                    SELECT u.id, u.conversation_id, u.sender_id, u.text, u.sent_at, u.mentions, u.ord,
                           row_number() OVER (PARTITION BY u.conversation_id, u.id ORDER BY u.ord) AS nth
                    FROM unnest(ids, conversations, senders, texts, sent_ats, mention_lists) WITH ORDINALITY
                         AS u(id, conversation_id, sender_id, text, sent_at, mentions, ord)),
                fresh AS (
                    SELECT i.conversation_id, i.id, top + row_number() OVER (ORDER BY i.ord) AS seq, i.sender_id, i.text, i.sent_at,
                           nullif(i.mentions, '') AS mentions
                    FROM input i WHERE i.nth = 1 AND i.ord <> ALL (k_ord))
                SELECT i.ord, coalesce(k.seq, f.seq), k.seq IS NULL AND i.nth = 1, coalesce(k.sender_id, f.sender_id), coalesce(k.text, f.text),
                       coalesce(k.sent_at, f.sent_at), CASE WHEN k.ord IS NULL THEN f.mentions ELSE k.mentions END
                FROM input i
                LEFT JOIN unnest(k_ord, k_seq, k_sender, k_text, k_sent, k_mentions) AS k(ord, seq, sender_id, text, sent_at, mentions) ON k.ord = i.ord
                LEFT JOIN fresh f ON f.conversation_id = i.conversation_id AND f.id = i.id
                ORDER BY i.ord;
        END
        $fn$
        """#

    /// The database's epoch (see `ChatSchema`).
    /// - Throws: `AppError(.unavailable)` when it is missing (a damaged database).
    public static func epoch(of database: PGDatabase) async throws -> String {
        guard let epoch = try await database.query("SELECT epoch FROM chat_epoch").first?.decode(String.self) else {
            throw AppError(.unavailable, "the database \(database.location) has no chat epoch; it is damaged")
        }
        return epoch
    }

    /// A message from a row whose first columns are `MessageRows.columns` (a query's own come after them),
    /// with its cursor in `epoch` (none without one).
    static func message(_ row: PostgresRow, epoch: String?) throws -> Message {
        try message(row.makeRandomAccess(), epoch: epoch)
    }

    private static func message(_ cells: PostgresRandomAccessRow, epoch: String?) throws -> Message {
        Message(
            id: MessageID(try cells[0].decode(String.self)), conversationID: ConversationID(try cells[1].decode(String.self)),
            senderID: UserID(try cells[2].decode(String.self)), text: try cells[3].decode(String.self),
            sentAt: MessageRows.date(milliseconds: Int(try cells[4].decode(Int64.self))),
            cursor: try epoch.map { EventCursor(epoch: $0, position: try cells[5].decode(Int64.self)) },
            version: Int(try cells[6].decode(Int32.self)), editedAt: try cells[7].decode(Int64?.self).map { MessageRows.date(milliseconds: Int($0)) },
            deleted: try cells[8].decode(Bool.self), reactions: try MessageRows.reactions(try cells[9].decode(String?.self)),
            replyTo: try cells[10].decode(String?.self).map { answered in
                Message.Reply(
                    id: MessageID(answered), text: try cells[11].decode(String?.self) ?? "", deleted: try cells[12].decode(Bool?.self) ?? true)
            }, mentions: try MessageRows.people(try cells[13].decode(String?.self)),
            attachments: try MessageRows.attachments(try cells[14].decode(String?.self)))
    }

    /// The change rows `query` selects (`MessageChangeRows.columns` first), the first step of
    /// reading message changes; with `skippingDamaged`, a row that does not read is passed over.
    /// - Throws: a decoding error for a damaged row.
    static func changeRows(_ query: PostgresQuery, skippingDamaged: Bool, _ database: PGDatabase) async throws -> MessageChangeRows {
        MessageChangeRows(
            rows: try await database.query(query).compactMap { row in
                do {
                    let (seq, kind, conversationID, messageID) = try row.decode((Int64, String, String, String).self)
                    return MessageChangeRows.Row(seq: seq, kind: kind, key: .init(conversationID: conversationID, messageID: messageID))
                } catch  where skippingDamaged {
                    return nil
                }
            })
    }

    /// The events of `changes`, the second step: each changed message read once, as it is now.
    /// - Throws: a decoding error or `.internal` for a damaged row, unless `skippingDamaged`.
    static func events(of changes: MessageChangeRows, epoch: String, skippingDamaged: Bool, _ database: PGDatabase) async throws -> [UserEvent] {
        let keys = changes.keys
        guard !keys.isEmpty else { return [] }
        let rows = try await database.query(PostgresChatStatements.changedMessages(keys))
        let messages = try rows.compactMap { row in
            do { return try message(row, epoch: epoch) } catch  where skippingDamaged { return nil }
        }
        return try changes.events(messages, epoch: epoch, skippingDamaged: skippingDamaged)
    }
}
