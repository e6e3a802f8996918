# bash completion for zanj(1)                                       -*- shell-script -*-
# Completes commands, options, archive files (*.zanj, and directories leading to them) for
# FILE arguments, and object paths for PATH arguments, read from the archive itself with
# `zanj ls -1 FILE` and offered one level at a time, like directories.
# Installed as share/bash-completion/completions/zanj; needs the bash-completion package.

# The word as the shell will pass it to zanj: quotes and backslashes removed. Done by hand,
# not with eval, so that completing never runs anything that was typed.
_zanj_unquote()
{
    local word=$1 out="" c quote="" i
    for ((i = 0; i < ${#word}; i++)); do
        c=${word:i:1}
        if [[ $quote == "'" ]]; then
            if [[ $c == "'" ]]; then quote=""; else out+=$c; fi
        elif [[ $c == '\' ]]; then
            ((i++))
            out+=${word:i:1}
        elif [[ $c == "$quote" ]]; then
            quote=""
        elif [[ -z $quote && ($c == "'" || $c == '"') ]]; then
            quote=$c
        else
            out+=$c
        fi
    done
    printf '%s' "$out"
}

# Object paths of archive $2 (read by the zanj program $1) one level below what $cur names.
# A path whose node has children completes without a trailing space: type / to go on.
_zanj_object_paths()
{
    local zanj=$1 archive prefix line rest child
    archive=$(_zanj_unquote "$2")
    [[ $archive == \~/* ]] && archive=$HOME/${archive#\~/}
    [[ -f $archive ]] || return 0
    prefix=$(_zanj_unquote "$cur")
    local -A seen=() parent=()
    local -a found=()
    while IFS= read -r line; do
        [[ -n $line && $line == "$prefix"* ]] || continue
        rest=${line:${#prefix}}
        child=$prefix${rest%%/*}
        [[ $rest == */* ]] && parent[$child]=1
        [[ -n ${seen[$child]-} ]] && continue
        seen[$child]=1
        found+=("$child")
    done < <("$zanj" ls -1 -- "$archive" 2>/dev/null)
    # Candidates are plain strings: readline quotes them (-o filenames) as the word needs.
    compopt -o filenames
    COMPREPLY+=("${found[@]}")
    if ((${#found[@]} == 1)) && [[ -n ${parent[${found[0]}]-} ]]; then
        compopt -o nospace
    fi
    __ltrim_colon_completions "$cur"
}

_zanj()
{
    local cur prev words cword split
    _init_completion -s -n : || return

    local zanj=${words[0]}
    local commands="info ls cat verify extract pack export diff stats hash report"
    local global_opts="-h --help --help-all -v --verbose -q --quiet --color --progress -V --version
        --max-json-bytes --max-json-values --max-jsonl-line-bytes --max-jsonl-rows --max-ratio --max-member-bytes
        --connect-timeout --idle-timeout --retries --insecure --download --download-max --speed-limit --speed-time
        --deadline --http-header"

    # The command and the positional arguments before the cursor, skipping options and the
    # values of the options that take one.
    local command="" i word
    local -a args=()
    for ((i = 1; i < cword; i++)); do
        word=${words[i]}
        case $word in
            --color | --progress | -d | --depth | --glob | -C | -o | -f | --format | --head | --tail | --member | \
                -j | --jobs | --max-total-bytes | --max-entries | --max-json-depth | --max-npy-header | --max-ratio | \
                --atol | --rtol | --tol | --exclude | --directory | --max-member-bytes | --output | --key | \
                --algorithm | --include | --check | --list-threshold | --array-threshold | --level | \
                --max-json-bytes | --max-json-values | --max-jsonl-line-bytes | --max-jsonl-rows | \
                --connect-timeout | --idle-timeout | --retries | --http-header | --download-max | --speed-limit | \
                --speed-time | --deadline | --largest) ((i++)) ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then command=$word; else args+=("$word"); fi
                ;;
        esac
    done

    case $prev in
        --color | --progress)
            COMPREPLY=($(compgen -W 'auto always never' -- "$cur"))
            return
            ;;
        -d | --depth | --glob | --head | --tail | --member | -j | --jobs | --max-total-bytes | --max-entries | \
            --max-json-depth | --max-npy-header | --max-ratio | --atol | --rtol | --tol | --exclude | --max-member-bytes | \
            --key | --list-threshold | --array-threshold | --level | --include | \
            --max-json-bytes | --max-json-values | --max-jsonl-line-bytes | --max-jsonl-rows | \
            --connect-timeout | --idle-timeout | --retries | --http-header | --download-max | --speed-limit | \
                --speed-time | --deadline)
            return # a number, a pattern, a member name, a header: nothing to offer
            ;;
        -f | --format)
            COMPREPLY=($(compgen -W 'text json jsonl csv npy raw' -- "$cur"))
            return
            ;;
        --kind)
            COMPREPLY=($(compgen -W 'dict list array table external_list dataclass string number bool null other' -- "$cur"))
            return
            ;;
        --sort)
            COMPREPLY=($(compgen -W 'name size' -- "$cur"))
            return
            ;;
        --algorithm)
            COMPREPLY=($(compgen -W 'sha256 sha512 sha3-256 blake2b512' -- "$cur"))
            return
            ;;
        --check | --junit)
            _filedir
            return
            ;;
        -C | --directory)
            _filedir -d
            return
            ;;
        -o | --output)
            _filedir zanj
            return
            ;;
    esac
    $split && return

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$global_opts" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local opts=""
    case $command in
        info) opts="--json --handlers --no-members --largest" ;;
        ls) opts="-d --depth --glob -l --long --members --json -1 --paths --kind --sort --tree --wide" ;;
        cat) opts="-f --format --json --full --summary --head --tail --resolve --plain --columns --member" ;;
        verify) opts="-q --quiet --json --strict --junit -j --jobs --max-total-bytes --max-entries --max-json-depth --max-npy-header" ;;
        extract) opts="-C --directory --force --salvage -l --list --npy-only --json-only --json --max-total-bytes -j --jobs" ;;
        pack) opts="-o --output --key --list-threshold --array-threshold --level --store -j --jobs --json" ;;
        export) opts="-o --output --format --cast --force --json" ;;
        diff) opts="--atol --rtol --tol --exclude --nan-unequal --strict --structure --json -q --brief -j --jobs" ;;
        hash) opts="--algorithm --include --exclude --json --check -j --jobs" ;;
        stats) opts="--glob --json --hist" ;;
        report) opts="-o --output --atol --rtol --tol --exclude --nan-unequal -j --jobs" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts $global_opts" -- "$cur"))
        return
    fi

    # What the next positional argument is: an archive, an object path in the first
    # archive, or any file (pack's input may be a directory, an .npz, ...).
    case $command:${#args[@]} in
        ls:1 | cat:1 | stats:1 | export:1 | extract:[1-9]*) _zanj_object_paths "$zanj" "${args[0]}" ;;
        pack:*) _filedir ;;
        info:* | ls:0 | cat:0 | verify:* | extract:0 | export:0 | diff:0 | diff:1 | stats:0 | hash:* | report:0 | report:1) _filedir zanj ;;
    esac
} &&
    complete -F _zanj zanj
