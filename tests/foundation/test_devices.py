from classroom.devices import current_binding


def test_device_client_cookie_is_read_back_as_the_binding(
    rf, open_session, students, device_client
):
    client = device_client(open_session, students[0])
    request = rf.get("/")
    request.COOKIES.update({k: v.value for k, v in client.cookies.items()})
    binding = current_binding(request)
    assert binding is not None
    assert binding.student_id == students[0].pk
