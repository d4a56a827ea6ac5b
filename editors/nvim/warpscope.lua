-- warpscope for Neovim (0.8+; on 0.7 use vim.lsp.start_client + buf_attach_client,
-- as tests/nvim/init.lua does).
--
-- Put this file in ~/.config/nvim/plugin/ (or `require` it from init.lua).
-- Neovim has no `ptx` filetype of its own: the first block adds it.

vim.filetype.add({ extension = { ptx = 'ptx' } })

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'ptx',
  callback = function(args)
    vim.lsp.start({
      name = 'warpscope',
      cmd = { 'warpscope', 'lsp' },
      root_dir = vim.fs.dirname(vim.fs.find({ 'warpscope.toml', 'pyproject.toml', '.git' }, {
        upward = true,
        path = vim.api.nvim_buf_get_name(args.buf),
      })[1]) or vim.fn.getcwd(),
      -- Switch the sectors-per-request inlay hints off with `inlayHints = false`.
      init_options = { inlayHints = { enable = true } },
      settings = { warpscope = { inlayHints = { enable = true } } },
    }, { bufnr = args.buf })
  end,
})

-- Neovim 0.10+: show the inlay hints.
vim.api.nvim_create_autocmd('LspAttach', {
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == 'warpscope' and vim.lsp.inlay_hint then
      vim.lsp.inlay_hint.enable(true, { bufnr = args.buf })
    end
  end,
})
