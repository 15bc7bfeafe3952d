def pytest_configure(config):
    config.addinivalue_line("markers", "guest: boots QEMU guests (slow; needs scripts/setup.sh)")
    config.addinivalue_line("markers", "uml: runs User-Mode Linux guests")
