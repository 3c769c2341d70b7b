# bash completion for rankline                                     -*- shell-script -*-
# Installed as /usr/share/bash-completion/completions/rankline. tests/packaging/tst_manpage checks
# that every command and option printed by `rankline --help` and `rankline COMMAND --help` is here.

_rankline()
{
    local cur prev cmd i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"

    # The command is the first word after `rankline` that is not an option.
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
        diagnose | report | probe | encyclopedia)
            cmd="${COMP_WORDS[i]}"
            break
            ;;
        --screenshot) ((i++)) ;;
        -*) ;;
        *) break ;;
        esac
    done

    # Options that take a value.
    case "$prev" in
    --clock-offset)
        return
        ;;
    --format)
        mapfile -t COMPREPLY < <(compgen -W "html pdf md json" -- "$cur")
        return
        ;;
    --paper)
        mapfile -t COMPREPLY < <(compgen -W "a4 letter" -- "$cur")
        return
        ;;
    --time)
        return
        ;;
    --nccl-lib | --screenshot | -o | --output)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    esac

    local opts
    case "$cmd" in
    diagnose) opts="--json --no-local-nccl --nccl-lib --all-attempts --clock-offset --timings --help" ;;
    report) opts="-o --output --format --no-redact --paper --time --no-local-nccl --nccl-lib --help --help-all" ;;
    probe) opts="--json --nccl-lib --socket-retry --help" ;;
    encyclopedia) opts="--list --export-patterns --help" ;;
    *) opts="--sample --screenshot --help --version" ;;
    esac

    if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
        return
    fi

    case "$cmd" in
    probe) COMPREPLY=() ;;
    encyclopedia)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        ;;
    diagnose | report)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        ;;
    *)
        compopt -o filenames 2>/dev/null
        # No command yet: offer the commands as well as files and folders to open.
        mapfile -t COMPREPLY < <(
            if ((COMP_CWORD == 1)); then compgen -W "diagnose report probe encyclopedia" -- "$cur"; fi
            compgen -f -- "$cur"
        )
        ;;
    esac
} &&
    complete -F _rankline rankline
