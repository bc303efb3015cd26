from classroom.throttle import client_address


def test_without_proxies_the_address_is_the_connection_address(rf, settings):
    settings.BOTBENCH_PROXY_HOPS = 0
    request = rf.get("/join", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_address(request) == "10.0.0.5"


def test_behind_one_proxy_the_last_forwarded_entry_is_the_student(rf, settings):
    settings.BOTBENCH_PROXY_HOPS = 1
    request = rf.get("/join", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.168.4.20")
    assert client_address(request) == "192.168.4.20"


def test_a_short_forwarded_header_falls_back_to_the_connection(rf, settings):
    settings.BOTBENCH_PROXY_HOPS = 2
    request = rf.get("/join", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.168.4.20")
    assert client_address(request) == "10.0.0.1"
