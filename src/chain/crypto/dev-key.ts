// Graphene's well-known development key. The bundled genesis gives it to `nathan` (owner, active and
// memo) and to the devnet's witness, which signs blocks with it. Anyone can sign with it:
// never use it on a chain that holds anything of value.
export const DEV_BLOCK_SIGNING_WIF = '5KQwrPbwdL6PhXujxW37FSSQZ1JiwsST4cqQzDeyXtP79zkvFD3';
export const DEV_PUBLIC_KEY = 'BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV';
