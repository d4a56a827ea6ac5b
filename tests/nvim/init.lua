-- Headless Neovim client for warpscope's LSP test (tests/lsp_nvim.rs).
--
--   WARPSCOPE_BIN=target/debug/warpscope WARPSCOPE_OUT=/tmp/out.json \
--     nvim --headless -u tests/nvim/init.lua file.ptx
--
-- Attaches `warpscope lsp` to the buffer, waits for the server's diagnostics,
-- asks for a hover at WARPSCOPE_HOVER_LINE/COL (0-based, optional), writes
-- what Neovim received to WARPSCOPE_OUT as JSON and quits. Works with
-- Neovim 0.7 (Debian bookworm: vim.lsp.start_client) and later (vim.lsp.start).

local bin = os.getenv('WARPSCOPE_BIN') or 'warpscope'
local out = assert(os.getenv('WARPSCOPE_OUT'), 'WARPSCOPE_OUT is not set')
local hover_line = tonumber(os.getenv('WARPSCOPE_HOVER_LINE') or '')
local hover_col = tonumber(os.getenv('WARPSCOPE_HOVER_COL') or '')

local function write(result)
  local f = assert(io.open(out, 'w'))
  f:write(vim.json.encode(result))
  f:close()
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  local received = false
  local config = {
    name = 'warpscope',
    cmd = { bin, 'lsp' },
    root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':p:h'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, cfg)
        vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, cfg)
        received = true
      end,
    },
  }
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config, { bufnr = buf })
  else
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, client_id)
  end
  -- A guard against a server that never answers, not a measurement.
  local ok = vim.wait(60000, function() return received end, 20)
  local result = { received = ok, diagnostics = {} }
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(result.diagnostics, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      source = d.source,
      code = d.code or lsp.code,
    })
  end
  if ok and hover_line then
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = hover_line, character = hover_col or 0 },
    }
    local responses = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 60000) or {}
    for _, r in pairs(responses) do
      if r.result and r.result.contents then
        result.hover = r.result.contents.value or r.result.contents
      end
    end
  end
  write(result)
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
  vim.cmd('qa!')
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local ok, err = pcall(run)
    if not ok then
      write({ error = tostring(err) })
      vim.cmd('qa!')
    end
  end,
})
