#!/bin/sh
# Answers "!ping" with "pong" in one group, as a bot. MESSAGEAI_TOKEN holds the bot's token
# (messageai tokens create --bot NAME --scope read:CHAT,send:CHAT); the cursor it saw last is
# kept in STATE, so that a restart resumes with no gap and no repeat.
chat=${1:?usage: ping-bot.sh CHAT [STATE]} state=${2:-ping-bot.cursor}
since=$(cat "$state" 2>/dev/null)
messageai tail "$chat" --json ${since:+--since "$since"} | while IFS= read -r event; do
    case $event in *'"text":"!ping"'*'"type":"chat.message"'*) messageai send "$chat" pong >/dev/null ;; esac
    printf '%s\n' "$event" | sed -n 's/^{"cursor":"\([^"]*\)".*/\1/p' >"$state"
done
