# fish completion for opm
# Written by "opm completion fish"; regenerate it instead of editing it.

function __opm_subcommands --argument-names path
    switch $path
        case 'opm'
            printf '%s\n' 'completion' 'generate' 'help' 'init' 'render' 'serve' 'validate' 'version'
        case 'opm completion'
            printf '%s\n' 'bash' 'fish' 'zsh'
        case 'opm generate'
            printf '%s\n' 'dockerfile'
    end
end

function __opm_value_flags --argument-names path
    switch $path
        case 'opm generate dockerfile'
            printf '%s\n' '--base-image' '-i' '--builder-image' '-b' '--extra-labels' '-l'
        case 'opm init'
            printf '%s\n' '--default-channel' '-c' '--description' '-d' '--icon' '-i' '--output' '-o'
        case 'opm render'
            printf '%s\n' '--migrate-level' '--output' '-o' '--platform'
        case 'opm serve'
            printf '%s\n' '--cache-dir' '--port' '-p' '--pprof-addr' '--termination-log' '-t'
        case 'opm validate'
            printf '%s\n' '--output' '-o'
    end
end

function __opm_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path opm
    set -l skip 0
    for word in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test "$word" = "--"
            break
        end
        if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word; and contains -- $word (__opm_value_flags "$path")
                set skip 1
            end
        else if contains -- $word (__opm_subcommands "$path")
            set path "$path $word"
        end
    end
    echo $path
end

function __opm_at --argument-names path
    test (__opm_path) = "$path"
end

complete -c opm -f
complete -c opm -n '__opm_at "opm"' -a 'completion' -d 'Generate the autocompletion script for the specified shell'
complete -c opm -n '__opm_at "opm"' -a 'generate' -d 'Generate various artifacts for file-based catalogs'
complete -c opm -n '__opm_at "opm"' -a 'help' -d 'Help about any command'
complete -c opm -n '__opm_at "opm"' -a 'init' -d 'Generate an olm.package declarative config blob'
complete -c opm -n '__opm_at "opm"' -a 'render' -d 'Generate a stream of file-based catalog objects from catalogs and bundles'
complete -c opm -n '__opm_at "opm"' -a 'serve' -d 'serve declarative configs'
complete -c opm -n '__opm_at "opm"' -a 'validate' -d 'Validate the declarative index config'
complete -c opm -n '__opm_at "opm"' -a 'version' -d 'Print the opm version'
complete -c opm -n '__opm_at "opm"' -s h -l help -d 'help for opm'
complete -c opm -n '__opm_at "opm"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion"' -a 'bash' -d 'Generate the autocompletion script for bash'
complete -c opm -n '__opm_at "opm completion"' -a 'fish' -d 'Generate the autocompletion script for fish'
complete -c opm -n '__opm_at "opm completion"' -a 'zsh' -d 'Generate the autocompletion script for zsh'
complete -c opm -n '__opm_at "opm completion"' -s h -l help -d 'help for completion'
complete -c opm -n '__opm_at "opm completion"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion bash"' -s h -l help -d 'help for bash'
complete -c opm -n '__opm_at "opm completion bash"' -l no-descriptions -d 'disable completion descriptions'
complete -c opm -n '__opm_at "opm completion bash"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion bash"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion fish"' -s h -l help -d 'help for fish'
complete -c opm -n '__opm_at "opm completion fish"' -l no-descriptions -d 'disable completion descriptions'
complete -c opm -n '__opm_at "opm completion fish"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion fish"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion zsh"' -s h -l help -d 'help for zsh'
complete -c opm -n '__opm_at "opm completion zsh"' -l no-descriptions -d 'disable completion descriptions'
complete -c opm -n '__opm_at "opm completion zsh"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion zsh"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate"' -a 'dockerfile' -d 'Generate a Dockerfile for a file-based catalog'
complete -c opm -n '__opm_at "opm generate"' -s h -l help -d 'help for generate'
complete -c opm -n '__opm_at "opm generate"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s i -l base-image -r -F -d 'Image base to use to build catalog.'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s b -l builder-image -r -F -d 'Image to use as a build stage.'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s l -l extra-labels -r -F -d 'Extra labels to include in the generated Dockerfile. Labels should be of the form \'key=value\'.'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s h -l help -d 'help for dockerfile'
complete -c opm -n '__opm_at "opm generate dockerfile"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate dockerfile"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate dockerfile"' -F
complete -c opm -n '__opm_at "opm init"' -s c -l default-channel -r -F -d 'The channel that subscriptions will default to if unspecified'
complete -c opm -n '__opm_at "opm init"' -s d -l description -r -F -d 'Path to the operator\'s README.md (or other documentation)'
complete -c opm -n '__opm_at "opm init"' -s h -l help -d 'help for init'
complete -c opm -n '__opm_at "opm init"' -s i -l icon -r -F -d 'Path to package\'s icon'
complete -c opm -n '__opm_at "opm init"' -s o -l output -r -F -d 'Output format (json|yaml)'
complete -c opm -n '__opm_at "opm init"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm init"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm init"' -F
complete -c opm -n '__opm_at "opm render"' -s h -l help -d 'help for render'
complete -c opm -n '__opm_at "opm render"' -l migrate -d 'Perform all available schema migrations on the rendered FBC'
complete -c opm -n '__opm_at "opm render"' -l migrate-level -r -F -d 'Name of the last migration to run (default: none)'
complete -c opm -n '__opm_at "opm render"' -s o -l output -r -F -d 'Output format of the streamed file-based catalog objects (json|yaml)'
complete -c opm -n '__opm_at "opm render"' -l platform -r -F -d 'Platform (os/arch[/variant]) to render from multi-platform images (default: linux and this machine\'s architecture)'
complete -c opm -n '__opm_at "opm render"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm render"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm render"' -F
complete -c opm -n '__opm_at "opm serve"' -l cache-dir -r -F -d 'if set, sync and persist server cache directory'
complete -c opm -n '__opm_at "opm serve"' -l cache-enforce-integrity -d 'exit with error if cache is not present or has been invalidated. (default: true when --cache-dir is set and --cache-only is false, false otherwise), '
complete -c opm -n '__opm_at "opm serve"' -l cache-only -d 'sync the serve cache and exit without serving'
complete -c opm -n '__opm_at "opm serve"' -l debug -d 'enable debug logging'
complete -c opm -n '__opm_at "opm serve"' -s h -l help -d 'help for serve'
complete -c opm -n '__opm_at "opm serve"' -s p -l port -r -F -d 'port number to serve on'
complete -c opm -n '__opm_at "opm serve"' -l pprof-addr -r -F -d 'address of startup profiling endpoint (addr:port format)'
complete -c opm -n '__opm_at "opm serve"' -s t -l termination-log -r -F -d 'path to a container termination log file'
complete -c opm -n '__opm_at "opm serve"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm serve"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm serve"' -F
complete -c opm -n '__opm_at "opm validate"' -s h -l help -d 'help for validate'
complete -c opm -n '__opm_at "opm validate"' -s o -l output -r -F -d 'Output format for validation results (json|yaml)'
complete -c opm -n '__opm_at "opm validate"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm validate"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm validate"' -F
complete -c opm -n '__opm_at "opm version"' -s h -l help -d 'help for version'
complete -c opm -n '__opm_at "opm version"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm version"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
