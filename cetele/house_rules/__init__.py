"""House rules: the built-in presets, house presets behind their own links, the preset editor
(built from the engine's declaration of every parameter) and adjusting a preset for one match."""
