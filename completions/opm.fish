# fish completion for opm
# Written by "opm completion fish"; regenerate it instead of editing it.

function __opm_subcommands --argument-names path
    switch $path
        case 'opm'
            printf '%s\n' 'alpha' 'completion' 'generate' 'help' 'init' 'render' 'validate' 'version'
        case 'opm alpha'
            printf '%s\n' 'convert-template' 'list' 'render-graph' 'render-template'
        case 'opm alpha convert-template'
            printf '%s\n' 'basic' 'substitutes'
        case 'opm alpha list'
            printf '%s\n' 'bundles' 'channels' 'packages'
        case 'opm completion'
            printf '%s\n' 'bash' 'fish' 'zsh'
        case 'opm generate'
            printf '%s\n' 'dockerfile'
    end
end

function __opm_value_flags --argument-names path
    switch $path
        case 'opm alpha convert-template basic'
            printf '%s\n' '--output' '-o'
        case 'opm alpha convert-template substitutes'
            printf '%s\n' '--output' '-o'
        case 'opm alpha render-graph'
            printf '%s\n' '--minimum-edge' '--package-name' '-p'
        case 'opm alpha render-template'
            printf '%s\n' '--migrate-level' '--output' '-o'
        case 'opm generate dockerfile'
            printf '%s\n' '--base-image' '-i' '--builder-image' '-b' '--extra-labels' '-l'
        case 'opm init'
            printf '%s\n' '--default-channel' '-c' '--description' '-d' '--icon' '-i' '--output' '-o'
        case 'opm render'
            printf '%s\n' '--alpha-image-ref-template' '--migrate-level' '--output' '-o' '--platform'
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
complete -c opm -n '__opm_at "opm"' -a 'alpha' -d 'Run an alpha subcommand'
complete -c opm -n '__opm_at "opm"' -a 'completion' -d 'Generate the autocompletion script for the specified shell'
complete -c opm -n '__opm_at "opm"' -a 'generate' -d 'Generate various artifacts for file-based catalogs'
complete -c opm -n '__opm_at "opm"' -a 'help' -d 'Help about any command'
complete -c opm -n '__opm_at "opm"' -a 'init' -d 'Generate an olm.package declarative config blob'
complete -c opm -n '__opm_at "opm"' -a 'render' -d 'Generate a stream of file-based catalog objects from catalogs and bundles'
complete -c opm -n '__opm_at "opm"' -a 'validate' -d 'Validate the declarative index config'
complete -c opm -n '__opm_at "opm"' -a 'version' -d 'Print the opm version'
complete -c opm -n '__opm_at "opm"' -s h -l help -d 'help for opm'
complete -c opm -n '__opm_at "opm"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha"' -a 'convert-template' -d 'Convert existing FBC to a supported template type'
complete -c opm -n '__opm_at "opm alpha"' -a 'list' -d 'List contents of an index'
complete -c opm -n '__opm_at "opm alpha"' -a 'render-graph' -d 'Generate mermaid-formatted view of upgrade graph of operators in an index'
complete -c opm -n '__opm_at "opm alpha"' -a 'render-template' -d 'Render a catalog template (auto-detects type from schema if TYPE not specified)'
complete -c opm -n '__opm_at "opm alpha"' -s h -l help -d 'help for alpha'
complete -c opm -n '__opm_at "opm alpha"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha convert-template"' -a 'basic' -d 'Generate a basic template from existing FBC'
complete -c opm -n '__opm_at "opm alpha convert-template"' -a 'substitutes' -d 'Generate a substitutes template from existing FBC'
complete -c opm -n '__opm_at "opm alpha convert-template"' -s h -l help -d 'help for convert-template'
complete -c opm -n '__opm_at "opm alpha convert-template"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha convert-template"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha convert-template basic"' -s h -l help -d 'help for basic'
complete -c opm -n '__opm_at "opm alpha convert-template basic"' -s o -l output -r -F -d 'Output format (json|yaml)'
complete -c opm -n '__opm_at "opm alpha convert-template basic"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha convert-template basic"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha convert-template basic"' -F
complete -c opm -n '__opm_at "opm alpha convert-template substitutes"' -s h -l help -d 'help for substitutes'
complete -c opm -n '__opm_at "opm alpha convert-template substitutes"' -s o -l output -r -F -d 'Output format (json|yaml)'
complete -c opm -n '__opm_at "opm alpha convert-template substitutes"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha convert-template substitutes"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha convert-template substitutes"' -F
complete -c opm -n '__opm_at "opm alpha list"' -a 'bundles' -d 'List package bundles in an index'
complete -c opm -n '__opm_at "opm alpha list"' -a 'channels' -d 'List package channels in an index'
complete -c opm -n '__opm_at "opm alpha list"' -a 'packages' -d 'List packages in an index'
complete -c opm -n '__opm_at "opm alpha list"' -s h -l help -d 'help for list'
complete -c opm -n '__opm_at "opm alpha list"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list bundles"' -s h -l help -d 'help for bundles'
complete -c opm -n '__opm_at "opm alpha list bundles"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list bundles"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list bundles"' -F
complete -c opm -n '__opm_at "opm alpha list channels"' -s h -l help -d 'help for channels'
complete -c opm -n '__opm_at "opm alpha list channels"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list channels"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list channels"' -F
complete -c opm -n '__opm_at "opm alpha list packages"' -s h -l help -d 'help for packages'
complete -c opm -n '__opm_at "opm alpha list packages"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list packages"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha list packages"' -F
complete -c opm -n '__opm_at "opm alpha render-graph"' -l draw-v0-semantics -d 'whether to indicate OLMv0 semantics in the output; default is to simply represent the upgrade graph'
complete -c opm -n '__opm_at "opm alpha render-graph"' -s h -l help -d 'help for render-graph'
complete -c opm -n '__opm_at "opm alpha render-graph"' -l minimum-edge -r -F -d 'the channel edge to be used as the lower bound of the set of edges composing the upgrade graph; default is to include all edges'
complete -c opm -n '__opm_at "opm alpha render-graph"' -s p -l package-name -r -F -d 'a specific package name to filter output; default is to include all packages in reference'
complete -c opm -n '__opm_at "opm alpha render-graph"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha render-graph"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha render-graph"' -F
complete -c opm -n '__opm_at "opm alpha render-template"' -s h -l help -d 'help for render-template'
complete -c opm -n '__opm_at "opm alpha render-template"' -l migrate-level -r -F -d 'Name of the last migration to run (default: none)'
complete -c opm -n '__opm_at "opm alpha render-template"' -s o -l output -r -F -d 'Output format (json|yaml|mermaid)'
complete -c opm -n '__opm_at "opm alpha render-template"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha render-template"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm alpha render-template"' -F
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
complete -c opm -n '__opm_at "opm render"' -l alpha-image-ref-template -r -F -d '(ALPHA: This flag will be removed or renamed in a future release, potentially without notice) When bundle image reference information is unavailable, populate it with this template'
complete -c opm -n '__opm_at "opm render"' -s h -l help -d 'help for render'
complete -c opm -n '__opm_at "opm render"' -l migrate -d 'Perform all available schema migrations on the rendered FBC'
complete -c opm -n '__opm_at "opm render"' -l migrate-level -r -F -d 'Name of the last migration to run (default: none)'
complete -c opm -n '__opm_at "opm render"' -s o -l output -r -F -d 'Output format of the streamed file-based catalog objects (json|yaml)'
complete -c opm -n '__opm_at "opm render"' -l platform -r -F -d 'Platform (os/arch[/variant]) to render from multi-platform images (default: linux and this machine\'s architecture)'
complete -c opm -n '__opm_at "opm render"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm render"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm render"' -F
complete -c opm -n '__opm_at "opm validate"' -s h -l help -d 'help for validate'
complete -c opm -n '__opm_at "opm validate"' -s o -l output -r -F -d 'Output format for validation results (json|yaml)'
complete -c opm -n '__opm_at "opm validate"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm validate"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm validate"' -F
complete -c opm -n '__opm_at "opm version"' -s h -l help -d 'help for version'
complete -c opm -n '__opm_at "opm version"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm version"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
