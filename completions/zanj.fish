# fish completion for zanj(1): commands, options and their values, archive files (*.zanj)
# for FILE arguments, and object paths for PATH arguments, offered part by part like
# directories. Everything offered comes from `zanj --complete` (src/cli/completion.hpp), so
# this file holds no command or option names.
# Installed as share/fish/vendor_completions.d/zanj.fish.

function __zanj_complete
    # The words before the cursor (fish removes the quotes), ~/ expanded, and the word being
    # completed, unescaped.
    set -l tokens (commandline -opc)
    set -l args
    for token in $tokens[2..-1]
        set -a args (string replace -r '^~(?=/)' -- $HOME $token)
    end
    set -l typed (commandline -ct | string unescape)
    set -l reply ($tokens[1] --complete $args "$typed" 2>/dev/null)
    switch "$reply[1]"
        case words
            # "NAME<tab>DESCRIPTION": fish shows the description.
            printf '%s\n' $reply[2..-1]
        case paths
            # A node with children ends in '/': offered as itself, and with the '/' to go on.
            for path in $reply[2..-1]
                string match -q -- '*/' $path; and printf '%s\n' (string replace -r '/$' '' -- $path)
                printf '%s\n' $path
            end
        case archives
            __fish_complete_suffix .zanj
        case files
            __fish_complete_path "$typed"
        case dirs
            __fish_complete_directories "$typed"
    end
end

complete -c zanj -f -k -a '(__zanj_complete)'
