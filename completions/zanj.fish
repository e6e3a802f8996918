# fish completion for zanj(1): commands, options, archive files (*.zanj) for FILE arguments,
# and object paths for PATH arguments, read from the archive itself with `zanj ls -1 FILE`
# and offered one level at a time, like directories.
# Installed as share/fish/vendor_completions.d/zanj.fish.

# The command and its positional arguments so far, one per line (options and the values of
# the options that take one are left out).
function __zanj_words
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l skip 0
    for token in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $token
            case --color --progress --junit --kind --sort -d --depth --glob -C -o -f --format --head --tail --member -j --jobs --max-total-bytes --max-entries --max-json-depth --max-npy-header --max-ratio --atol --rtol --tol --exclude --directory --max-member-bytes --output --key --list-threshold --array-threshold --level --max-json-bytes --max-json-values --max-jsonl-line-bytes --max-jsonl-rows --connect-timeout --idle-timeout --retries --http-header --download-max --speed-limit --speed-time --deadline --largest
                set skip 1
            case '-*'
            case '*'
                echo -- $token
        end
    end
end

# What the next positional argument is: "command", "archive", "path" (an object path in
# the first archive), "file", or "none".
function __zanj_next_arg
    set -l words (__zanj_words)
    if test (count $words) -eq 0
        echo command
        return
    end
    set -l given (math (count $words) - 1)
    switch "$words[1]:$given"
        case 'ls:1' 'cat:1' 'stats:1' 'export:1'
            echo path
        case 'pack:*'
            echo file
        case 'info:*' 'verify:*' 'ls:0' 'cat:0' 'extract:0' 'export:0' 'diff:0' 'diff:1' 'stats:0' 'hash:*' 'report:0' 'report:1'
            echo archive
        case 'extract:*'
            echo path
        case '*'
            echo none
    end
end

# Object paths of the first archive that extend the current token by one level. A path
# whose node has children is offered both as itself and with a trailing / to go on.
function __zanj_object_paths
    set -l words (__zanj_words)
    set -l archive (string replace -r '^~(?=/)' -- $HOME $words[2])
    test -f "$archive"; or return
    set -l program (commandline -opc)[1]
    set -l prefix (commandline -ct | string unescape)
    set -l skip (math (string length -- "$prefix") + 1)
    set -l seen
    for line in ($program ls -1 -- $archive 2>/dev/null)
        test -n "$line"; or continue
        test (string sub -l (string length -- "$prefix") -- $line) = "$prefix"; or continue
        set -l rest (string sub -s $skip -- $line)
        set -l parts (string split -m 1 / -- $rest)
        set -l child "$prefix$parts[1]"
        if not contains -- $child $seen
            set -a seen $child
            echo -- $child
        end
        if test (count $parts) -gt 1; and not contains -- "$child/" $seen
            set -a seen "$child/"
            echo -- "$child/"
        end
    end
end

function __zanj_using
    set -l words (__zanj_words)
    test "$words[1]" = "$argv[1]"
end

complete -c zanj -f

# Global options, before or after the command.
complete -c zanj -s h -l help -d 'Print help and exit'
complete -c zanj -l help-all -d 'Print the help of every command and exit'
complete -c zanj -s v -l verbose -d 'More messages on stderr (-vv for debug output)'
complete -c zanj -s q -l quiet -d 'Only errors on stderr, no progress bar'
complete -c zanj -l color -x -a 'auto always never' -d 'When to colour output'
complete -c zanj -l progress -x -a 'auto always never' -d 'When to draw a progress bar on stderr'
complete -c zanj -s V -l version -d 'Print the versions of zanj and its libraries'
complete -c zanj -l max-json-bytes -x -d 'Largest JSON member read, in bytes'
complete -c zanj -l max-json-values -x -d 'Most values in one JSON member or .jsonl line'
complete -c zanj -l max-jsonl-line-bytes -x -d 'Longest .jsonl line read, in bytes'
complete -c zanj -l max-jsonl-rows -x -d 'Most lines read from one .jsonl member'

# Commands.
set -l next_is_command 'test (__zanj_next_arg) = command'
complete -c zanj -n $next_is_command -a info -d 'Summarize archives: members, sizes, when saved'
complete -c zanj -n $next_is_command -a ls -d 'List the object tree: kinds, dtypes, shapes, storage'
complete -c zanj -n $next_is_command -a cat -d 'Print a value, an array or a table'
complete -c zanj -n $next_is_command -a verify -d 'Check structure, CRCs and references'
complete -c zanj -n $next_is_command -a extract -d 'Write members or arrays under a directory'
complete -c zanj -n $next_is_command -a pack -d 'Build a .zanj archive'
complete -c zanj -n $next_is_command -a export -d 'Write the arrays as .npz, .safetensors or a folder'
complete -c zanj -n $next_is_command -a diff -d 'Compare two archives'
complete -c zanj -n $next_is_command -a stats -d 'Array statistics: min, max, mean, std, NaN/Inf counts'
complete -c zanj -n $next_is_command -a hash -d 'Content digests independent of storage'
complete -c zanj -n $next_is_command -a report -d 'A self-contained HTML page of an archive, or of two compared'

# Arguments.
complete -c zanj -n 'test (__zanj_next_arg) = archive' -k -a '(__fish_complete_suffix .zanj)'
complete -c zanj -n 'test (__zanj_next_arg) = path' -a '(__zanj_object_paths)'
complete -c zanj -n 'test (__zanj_next_arg) = file' -F

# info
complete -c zanj -n '__zanj_using info' -l json -d 'One JSON object per file'
complete -c zanj -n '__zanj_using info' -l handlers -d "Include the handlers' source code"
complete -c zanj -n '__zanj_using info' -l no-members -d 'Do not list the ZIP members'
complete -c zanj -n '__zanj_using info' -l largest -x -d 'List the N largest arrays (0: none)'

# ls
complete -c zanj -n '__zanj_using ls' -s d -l depth -x -d 'Descend at most N levels below PATH'
complete -c zanj -n '__zanj_using ls' -l glob -x -d 'Only paths matching a shell pattern'
complete -c zanj -n '__zanj_using ls' -s l -l long -d 'Add value sizes and packed member sizes'
complete -c zanj -n '__zanj_using ls' -l members -d 'List the raw ZIP members instead'
complete -c zanj -n '__zanj_using ls' -l json -d 'Machine-readable output'
complete -c zanj -n '__zanj_using ls' -s 1 -l paths -d 'Print only object paths, one per line'
complete -c zanj -n '__zanj_using ls' -l kind -x -a 'dict list array table external_list dataclass string number bool null other' -d 'Only nodes of this kind'
complete -c zanj -n '__zanj_using ls' -l sort -x -a 'name size' -d 'List by name or by size'
complete -c zanj -n '__zanj_using ls' -l tree -d 'Keys indented by depth'
complete -c zanj -n '__zanj_using ls' -l wide -d 'Never cut long paths to the terminal width'

# cat
complete -c zanj -n '__zanj_using cat' -s f -l format -x -a 'text json jsonl csv npy raw' -d 'Output format'
complete -c zanj -n '__zanj_using cat' -l json -d 'Same as --format json'
complete -c zanj -n '__zanj_using cat' -l full -d 'Print every value of a large array'
complete -c zanj -n '__zanj_using cat' -l summary -d 'Summarize a large array even into a pipe'
complete -c zanj -n '__zanj_using cat' -l head -x -d 'Only the first N rows or entries'
complete -c zanj -n '__zanj_using cat' -l tail -x -d 'Only the last N rows or entries'
complete -c zanj -n '__zanj_using cat' -l resolve -d 'Fill in external arrays, tables and lists'
complete -c zanj -n '__zanj_using cat' -l plain -d 'Plain JSON: arrays as nested lists, no wrappers'
complete -c zanj -n '__zanj_using cat' -l columns -d 'With --plain, tables as column lists'
complete -c zanj -n '__zanj_using cat' -l member -x -d 'Print the bytes of this ZIP member'

# verify
complete -c zanj -n '__zanj_using verify' -s q -l quiet -d 'Print nothing: the exit status says it all'
complete -c zanj -n '__zanj_using verify' -l json -d 'One JSON report per file'
complete -c zanj -n '__zanj_using verify' -l strict -d 'Warnings make a file invalid too'
complete -c zanj -n '__zanj_using verify' -l junit -r -F -d 'Also write a JUnit XML report to FILE'
complete -c zanj -n '__zanj_using verify' -s j -l jobs -x -d 'Threads inflating members'
complete -c zanj -n '__zanj_using verify' -l max-total-bytes -x -d 'Most bytes all members may declare'
complete -c zanj -n '__zanj_using verify' -l max-entries -x -d 'Most ZIP entries accepted'
complete -c zanj -n '__zanj_using verify' -l max-json-depth -x -d 'Deepest JSON nesting accepted'
complete -c zanj -n '__zanj_using verify' -l max-npy-header -x -d 'Longest .npy header accepted'
complete -c zanj -l max-ratio -x -d 'verify warns over this many decoded bytes per compressed byte'
complete -c zanj -l max-member-bytes -x -d 'Most bytes one member may declare'
complete -c zanj -l connect-timeout -x -d 'URLs: seconds to wait for a connection'
complete -c zanj -l idle-timeout -x -d 'URLs: seconds without data before a retry'
complete -c zanj -l retries -x -d 'URLs: retries of a failed request'
complete -c zanj -l insecure -d 'URLs: do not verify TLS certificates'
complete -c zanj -l download -d 'URLs: download whole when the server ignores ranges'
complete -c zanj -l download-max -x -d 'URLs: largest file fetched whole without --download'
complete -c zanj -l speed-limit -x -d 'URLs: slowest bytes per second accepted'
complete -c zanj -l speed-time -x -d 'URLs: seconds the speed limit is measured over'
complete -c zanj -l deadline -x -d 'URLs: seconds after which every transfer ends'
complete -c zanj -l http-header -x -d 'URLs: extra request header'

# extract
complete -c zanj -n '__zanj_using extract' -s C -l directory -x -a '(__fish_complete_directories)' -d 'Directory to write into'
complete -c zanj -n '__zanj_using extract' -l force -d 'Replace existing files'
complete -c zanj -n '__zanj_using extract' -s j -l jobs -x -d 'Threads writing members'
complete -c zanj -n '__zanj_using extract' -l salvage -d 'Find members by their local headers when the directory is missing or cut'
complete -c zanj -n '__zanj_using extract' -s l -l list -d 'Only show what would be written'
complete -c zanj -n '__zanj_using extract' -l npy-only -d 'Only .npy members'
complete -c zanj -n '__zanj_using extract' -l json-only -d 'Only .json and .jsonl members'
complete -c zanj -n '__zanj_using extract' -l json -d 'Machine-readable report'
complete -c zanj -n '__zanj_using extract' -l max-total-bytes -x -d 'Most bytes the selected members may declare'

# pack
complete -c zanj -n '__zanj_using pack' -s o -l output -r -d 'Archive to write'
complete -c zanj -n '__zanj_using pack' -l key -x -d 'Root key of a lone .npy input'
complete -c zanj -n '__zanj_using pack' -l list-threshold -x -d 'Lists this long go to .jsonl members'
complete -c zanj -n '__zanj_using pack' -l array-threshold -x -d 'Arrays this large go to .npy members'
complete -c zanj -n '__zanj_using pack' -l level -x -a '0 1 2 3 4 5 6 7 8 9' -d 'Deflate level'
complete -c zanj -n '__zanj_using pack' -l store -d 'Store members uncompressed'
complete -c zanj -n '__zanj_using pack' -s j -l jobs -x -d 'Deflate threads'
complete -c zanj -n '__zanj_using pack' -l json -d 'Machine-readable summary'

# export
complete -c zanj -n '__zanj_using export' -s o -l output -r -d 'File or directory to write'
complete -c zanj -n '__zanj_using export' -l format -x -a 'npz safetensors dir' -d 'Output format'
complete -c zanj -n '__zanj_using export' -l cast -d 'safetensors: complex arrays as float pairs'
complete -c zanj -n '__zanj_using export' -l force -d 'Replace an existing output directory'
complete -c zanj -n '__zanj_using export' -l json -d 'Machine-readable summary'

# diff
complete -c zanj -n '__zanj_using diff' -l atol -x -d 'Absolute tolerance'
complete -c zanj -n '__zanj_using diff' -l rtol -x -d 'Relative tolerance, times |b|'
complete -c zanj -n '__zanj_using diff' -l tol -x -d 'PATH_GLOB=RTOL[,ATOL] for matching paths'
complete -c zanj -n '__zanj_using diff' -l exclude -x -d 'Skip paths matching a glob'
complete -c zanj -n '__zanj_using diff' -l nan-unequal -d 'NaN differs from NaN'
complete -c zanj -n '__zanj_using diff' -l strict -d 'Storage and metadata count too'
complete -c zanj -n '__zanj_using diff' -l structure -d 'Keys, kinds, dtypes, shapes, lengths, columns only'
complete -c zanj -n '__zanj_using diff' -l json -d 'Machine-readable report'
complete -c zanj -n '__zanj_using diff' -s q -l brief -d 'Only the exit status'
complete -c zanj -n '__zanj_using diff' -s j -l jobs -x -d 'Threads comparing arrays'

# hash
complete -c zanj -n '__zanj_using hash' -s j -l jobs -x -d 'Threads inflating members'
complete -c zanj -n '__zanj_using hash' -l algorithm -x -a 'sha256 sha512 sha3-256 blake2b512' -d 'Digest algorithm'
complete -c zanj -n '__zanj_using hash' -l include -x -d 'Hash only paths matching a glob'
complete -c zanj -n '__zanj_using hash' -l exclude -x -d 'Leave out paths matching a glob'
complete -c zanj -n '__zanj_using hash' -l json -d 'Per-node digests, for a lock'
complete -c zanj -n '__zanj_using hash' -l check -r -F -d 'Check archives against a lock'

# stats
complete -c zanj -n '__zanj_using stats' -l glob -x -d 'Only arrays matching a shell pattern'
complete -c zanj -n '__zanj_using stats' -l json -d 'Machine-readable output'
complete -c zanj -n '__zanj_using stats' -l hist -d 'Draw a histogram of each array under its row'
# report
complete -c zanj -n '__zanj_using report' -s o -l output -r -d 'Write the page to this file'
complete -c zanj -n '__zanj_using report' -l atol -x -d 'Comparison: absolute tolerance'
complete -c zanj -n '__zanj_using report' -l rtol -x -d 'Comparison: relative tolerance, times |b|'
complete -c zanj -n '__zanj_using report' -l tol -x -d 'Comparison: tolerances for matching paths'
complete -c zanj -n '__zanj_using report' -l exclude -x -d 'Comparison: skip paths matching a glob'
complete -c zanj -n '__zanj_using report' -l nan-unequal -d 'Comparison: NaN differs from NaN'
complete -c zanj -n '__zanj_using report' -s j -l jobs -x -d 'Threads reading members and comparing arrays'
